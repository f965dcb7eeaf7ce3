/**
 * The GraphiQL page's own script (served as an asset, so the page runs no inline script): it reads the page's
 * configuration (a JSON data block), points monaco's workers at the assets, holds back GraphiQL's schema introspection
 * while the Authorization header is still the placeholder, and renders `YogaGraphiQL.renderYogaGraphiQL` (from
 * @graphql-yoga/render-graphiql's bundle, loaded after this script; both are `defer` scripts, run in order before
 * DOMContentLoaded).
 *
 * Why the introspection is held: GraphiQL introspects the schema as soon as it loads, with the headers of the Headers
 * tab. Without a token that is a 401, which GraphiQL shows as an error in the response pane before anyone typed
 * anything. So an introspection request whose Authorization is missing, blank or the placeholder never leaves the
 * page: it stays pending (the docs show their loading state). When the Headers tab gets a real Authorization value
 * (checked half a second after the last edit, once it parses as JSON) and it is not the one the schema was last fetched
 * with, the schema is fetched again with GraphiQL's own "re-fetch schema" shortcut (Shift-Ctrl-R), and the held request
 * is dropped (GraphiQL ignores the answer of a superseded introspection). So docs and completion appear once the token is
 * entered, and follow it when it changes; the server still refuses introspection without a token.
 *
 * Plain ES2017 browser code in a string: it is sent as it is written (no build step for the browser).
 */
export const PAGE_SCRIPT = String.raw`(function () {
  'use strict';
  var config = JSON.parse(document.getElementById('graphiql-config').textContent);
  var placeholder = config.placeholder;

  self.MonacoEnvironment = {
    globalAPI: false,
    getWorkerUrl: function (_moduleId, label) {
      return new URL(config.workers[label] || config.workers.editorWorkerService, document.baseURI).href;
    },
  };

  var endpoint = new URL(location.pathname, location.href).href;
  var held = [];
  var introspectedWith;

  function authorizationOf(headers) {
    try {
      return new Headers(headers || {}).get('authorization');
    } catch (e) {
      return null;
    }
  }
  function isPlaceholder(value) {
    return value === null || value === undefined || String(value).trim() === '' || String(value).trim() === placeholder;
  }
  // GraphiQL's introspection: its operation name (GraphiQL's default, which this page keeps) and a __schema selection.
  function isIntrospection(body) {
    if (typeof body !== 'string') return false;
    try {
      var request = JSON.parse(body);
      return request !== null && request.operationName === 'IntrospectionQuery' && typeof request.query === 'string' && request.query.indexOf('__schema') !== -1;
    } catch (e) {
      return false;
    }
  }

  var realFetch = window.fetch.bind(window);
  window.fetch = function (input, init) {
    var url = new URL(typeof input === 'string' || input instanceof URL ? String(input) : input.url, location.href);
    if (url.origin + url.pathname === endpoint && init && isIntrospection(init.body)) {
      var authorization = authorizationOf(init.headers);
      if (isPlaceholder(authorization)) {
        return new Promise(function (_resolve, reject) { held.push(reject); });
      }
      introspectedWith = authorization;
    }
    return realFetch(input, init);
  };

  function refetchSchema() {
    var superseded = held;
    held = [];
    window.dispatchEvent(new KeyboardEvent('keydown', { key: 'R', code: 'KeyR', ctrlKey: true, shiftKey: true }));
    superseded.forEach(function (reject) { reject(new DOMException('Superseded by a new introspection', 'AbortError')); });
  }

  var timer;
  function headersEdited(text) {
    clearTimeout(timer);
    timer = setTimeout(function () {
      var parsed;
      try {
        parsed = JSON.parse(text || '{}');
      } catch (e) {
        return;
      }
      if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) return;
      var authorization = null;
      Object.keys(parsed).forEach(function (name) {
        if (name.toLowerCase() === 'authorization') authorization = parsed[name];
      });
      if (typeof authorization !== 'string' || isPlaceholder(authorization) || authorization === introspectedWith) return;
      refetchSchema();
    }, 500);
  }

  document.addEventListener('DOMContentLoaded', function () {
    var options = Object.assign({}, config.options, { onEditHeaders: headersEdited });
    YogaGraphiQL.renderYogaGraphiQL(document.getElementById('root'), options);
  });
})();
`;
