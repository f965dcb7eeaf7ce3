import net from 'node:net';

/**
 * A TCP proxy between a test's app and the suite's database, to take the database away and give it back as an outage
 * would: `stop()` drops every connection and refuses new ones (a server that stopped), `hang()` keeps connections
 * open but passes nothing and accepts without answering (a network cut), `start()` serves again on the same port.
 */
export interface DbProxy {
  /** The database URL through the proxy. */
  url: string;
  stop(): Promise<void>;
  hang(): void;
  start(): Promise<void>;
  close(): Promise<void>;
}

/** The proxy for `databaseUrl` (a TCP host and port, or the embedded database's unix socket folder). */
export async function startDbProxy(databaseUrl: string): Promise<DbProxy> {
  const target = new URL(databaseUrl);
  const host = decodeURIComponent(target.hostname);
  const port = Number(target.port || 5432);
  // The embedded database listens on a unix socket in a folder (src/db/embedded.ts), named as the URL's host.
  const connectTarget = () => (host.startsWith('/') ? net.connect({ path: `${host}/.s.PGSQL.${port}` }) : net.connect({ host, port }));
  const sockets = new Set<net.Socket>();
  let hanging = false;
  let listening = false;
  let server: net.Server;
  let listenPort = 0;
  const serve = () => new Promise<void>((resolve) => {
    server = net.createServer((client) => {
      sockets.add(client);
      client.on('close', () => sockets.delete(client));
      client.on('error', () => client.destroy());
      if (hanging) return;
      const upstream = connectTarget();
      sockets.add(upstream);
      upstream.on('close', () => { sockets.delete(upstream); client.destroy(); });
      upstream.on('error', () => upstream.destroy());
      client.on('close', () => upstream.destroy());
      client.on('data', (d) => { if (!hanging) upstream.write(d); });
      upstream.on('data', (d) => { if (!hanging) client.write(d); });
    });
    server.listen(listenPort, '127.0.0.1', () => {
      listenPort = (server.address() as net.AddressInfo).port;
      listening = true;
      resolve();
    });
  });
  await serve();
  const url = new URL(databaseUrl);
  const proxied = `postgresql://${url.username || 'postgres'}${url.password ? `:${url.password}` : ''}@127.0.0.1:${listenPort}${url.pathname}`;
  const dropAll = () => { for (const s of sockets) s.destroy(); sockets.clear(); };
  return {
    url: proxied,
    stop: () => new Promise<void>((resolve) => {
      hanging = false;
      dropAll();
      if (!listening) return resolve();
      listening = false;
      server.close(() => resolve());
    }),
    hang: () => { hanging = true; },
    start: async () => {
      // Out of a hang: the connections that hung are dropped (as a cut network's eventually are), new ones pass.
      if (hanging) { hanging = false; dropAll(); }
      if (!listening) await serve();
    },
    close: () => new Promise<void>((resolve) => {
      dropAll();
      if (!listening) return resolve();
      listening = false;
      server.close(() => resolve());
    }),
  };
}
