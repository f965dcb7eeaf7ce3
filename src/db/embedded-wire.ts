import { createServer, type Server, type Socket } from 'node:net';
import type { PGlite, postgresMod } from '@electric-sql/pglite';

/**
 * The embedded database's PostgreSQL wire protocol on a unix socket, driving PGlite's backend directly.
 *
 * This replaces @electric-sql/pglite-socket, which passes each message through `PGlite.execProtocolRaw`. On that path
 * PGlite's write callback parses every answer into JavaScript objects (for its own query API) and appends them to a
 * list that only that API empties: through the socket the list held every row ever returned (the V8 heap grew by
 * about 300 MiB in one bench run, and never came back), and the parsing cost about a quarter of the CPU of a large
 * answer. Here the backend's output is copied byte for byte to the client, which parses it once (the pg driver).
 *
 * PGlite keeps its own read/write callbacks for its API (start-up queries, `close()`); the bridge installs its
 * callbacks around each message it runs and puts PGlite's back afterwards. One message is run at a time, as PGlite's
 * own API and pglite-socket do; everything runs synchronously on the event loop, so nothing interleaves.
 */

/** What of PGlite's Emscripten module the bridge uses. */
type Module = Pick<postgresMod.PostgresMod, 'addFunction' | 'removeFunction' | '_set_read_write_cbs' | '_interactive_one'> & { HEAPU8: Uint8Array };

/** PGlite's own read and write callbacks (function-table indexes), recorded when PGlite installs them. */
export interface PgliteCallbacks { read: number; write: number }

const SSL_REQUEST = 80877103;
const GSSENC_REQUEST = 80877104;
const CANCEL_REQUEST = 80877102;
/** PostgreSQL refuses messages over 1 GiB; so does the bridge (a length beyond is a broken or hostile client). */
const MAX_MESSAGE = 2 ** 30;
/** The output buffer is kept at this size between answers; a larger answer grows it for its own duration only. */
const OUTPUT_KEPT = 256 * 1024;

/** A frontend message of one type byte and a body. */
function message(type: string, body: Buffer = Buffer.alloc(0)): Buffer {
  const out = Buffer.allocUnsafe(5 + body.length);
  out[0] = type.charCodeAt(0);
  out.writeInt32BE(4 + body.length, 1);
  body.copy(out, 5);
  return out;
}
const cstring = (s: string) => Buffer.from(`${s}\0`, 'utf8');

/** An ErrorResponse (severity, SQLSTATE and text), as a server sends before closing a connection it refuses. */
function errorResponse(severity: string, code: string, text: string): Buffer {
  const body = Buffer.concat([cstring(`S${severity}`), cstring(`V${severity}`), cstring(`C${code}`), cstring(`M${text}`), Buffer.from([0])]);
  const out = Buffer.allocUnsafe(5 + body.length);
  out[0] = 'E'.charCodeAt(0);
  out.writeInt32BE(4 + body.length, 1);
  body.copy(out, 5);
  return out;
}

/** PGlite's backend, one message at a time, its answers gathered in one buffer. */
export class WireBackend {
  private readonly mod: Module;
  private readonly readCb: number;
  private readonly writeCb: number;
  private input: Uint8Array = new Uint8Array(0);
  private inputAt = 0;
  private output = Buffer.allocUnsafe(OUTPUT_KEPT);
  private outputLength = 0;
  /** Transaction status of the last ReadyForQuery: `I` idle, `T` in a transaction block, `E` in a failed one. */
  status = 'I';
  /** False while the client is inside an exchange that has not ended with ReadyForQuery yet (e.g. Parse … before Sync). */
  ready = true;

  constructor(db: PGlite, private readonly pglite: PgliteCallbacks) {
    this.mod = db.Module as unknown as Module;
    this.readCb = this.mod.addFunction((ptr: number, max: number) => {
      const n = Math.min(max, this.input.length - this.inputAt);
      if (n <= 0) return 0;
      this.mod.HEAPU8.set(this.input.subarray(this.inputAt, this.inputAt + n), ptr);
      this.inputAt += n;
      return n;
    }, 'iii');
    this.writeCb = this.mod.addFunction((ptr: number, length: number) => {
      this.reserve(length);
      this.output.set(this.mod.HEAPU8.subarray(ptr, ptr + length), this.outputLength);
      this.outputLength += length;
      return length;
    }, 'iii');
  }

  private reserve(more: number): void {
    if (this.outputLength + more <= this.output.length) return;
    let size = this.output.length * 2;
    while (size < this.outputLength + more) size *= 2;
    const grown = Buffer.allocUnsafe(size);
    this.output.copy(grown, 0, 0, this.outputLength);
    this.output = grown;
  }

  /** Runs one complete frontend message (or the start-up packet); its answer is appended to the output. */
  run(frontend: Uint8Array): void {
    const from = this.outputLength;
    this.input = frontend;
    this.inputAt = 0;
    this.mod._set_read_write_cbs(this.readCb, this.writeCb);
    try {
      this.mod._interactive_one(frontend.length, frontend[0]);
    } finally {
      this.mod._set_read_write_cbs(this.pglite.read, this.pglite.write);
      this.input = new Uint8Array(0);
    }
    this.track(from);
  }

  /** Follows the answer's messages (type byte and length only) to the last ReadyForQuery and its status byte. */
  private track(from: number): void {
    let at = from;
    let sawReady = false;
    while (at + 5 <= this.outputLength) {
      const type = this.output[at];
      const length = this.output.readInt32BE(at + 1);
      if (length < 4) break;
      if (type === 0x5a /* Z */ && at + 6 <= this.outputLength) {
        this.status = String.fromCharCode(this.output[at + 5]);
        sawReady = true;
      }
      at += 1 + length;
    }
    this.ready = sawReady || (this.ready && this.outputLength === from);
  }

  /** The answers gathered since the last call, as a buffer of their own (the output buffer is reused). */
  take(): Buffer {
    const answer = Buffer.from(this.output.subarray(0, this.outputLength));
    this.outputLength = 0;
    if (this.output.length > OUTPUT_KEPT) this.output = Buffer.allocUnsafe(OUTPUT_KEPT);
    return answer;
  }

  /** Drops what was gathered (answers to the bridge's own statements). */
  discard(): void {
    this.take();
  }

  /**
   * Runs one statement of the bridge's own as a simple query and returns its rows (text values); throws the server's
   * message on an error. Only between the client's exchanges (`ready`), never inside its transaction.
   */
  query(sql: string): string[][] {
    const start = this.outputLength;
    this.run(message('Q', cstring(sql)));
    const rows: string[][] = [];
    let error: string | undefined;
    let at = start;
    while (at + 5 <= this.outputLength) {
      const type = String.fromCharCode(this.output[at]);
      const end = at + 1 + this.output.readInt32BE(at + 1);
      if (type === 'D') {
        const fields = this.output.readInt16BE(at + 5);
        let p = at + 7;
        const row: string[] = [];
        for (let i = 0; i < fields; i++) {
          const n = this.output.readInt32BE(p);
          p += 4;
          row.push(n < 0 ? '' : this.output.toString('utf8', p, p + n));
          if (n > 0) p += n;
        }
        rows.push(row);
      } else if (type === 'E') {
        // Fields: a code byte and a NUL-terminated value each; M is the message.
        let p = at + 5;
        while (p < end && this.output[p] !== 0) {
          const field = String.fromCharCode(this.output[p]);
          const stop = this.output.indexOf(0, p + 1);
          if (field === 'M') error = this.output.toString('utf8', p + 1, stop);
          p = stop + 1;
        }
      }
      at = end;
    }
    this.outputLength = start;
    if (error !== undefined) throw new Error(`${sql}: ${error}`);
    return rows;
  }

  /**
   * The client went away: end what it left open, as a backend does when its connection closes. A Sync closes an
   * unfinished extended-query exchange (and a pending error's skip-till-Sync), a ROLLBACK a transaction block.
   */
  endSession(): void {
    this.run(message('S'));
    if (this.status !== 'I') this.run(message('Q', cstring('ROLLBACK')));
    this.discard();
  }

  close(): void {
    this.mod.removeFunction(this.readCb);
    this.mod.removeFunction(this.writeCb);
  }
}

/** One client connection: frames the byte stream into messages and runs them in order. */
class Connection {
  /** Bytes received and not yet run, in the order they came (joined only once a whole message is there). */
  private chunks: Buffer[] = [];
  private buffered = 0;
  private startup = true;

  constructor(private readonly socket: Socket, private readonly backend: WireBackend) {
    socket.setNoDelay(true);
    socket.on('data', (chunk: Buffer) => {
      this.chunks.push(chunk);
      this.buffered += chunk.length;
      this.pump();
    });
    socket.on('drain', () => {
      socket.resume();
      this.pump();
    });
  }

  /** True between exchanges: nothing half-received, nothing half-answered, no transaction open. */
  get idle(): boolean {
    return this.buffered === 0 && this.backend.ready && this.backend.status === 'I';
  }

  /** The first `n` buffered bytes in one buffer (chunks are joined as needed). */
  private head(n: number): Buffer {
    if (this.chunks[0].length < n) this.chunks = [Buffer.concat(this.chunks, this.buffered)];
    return this.chunks[0];
  }

  /** Takes the next `length` bytes off the buffered input. */
  private take(length: number): Buffer {
    const first = this.head(length);
    this.buffered -= length;
    if (first.length === length) this.chunks.shift();
    else this.chunks[0] = first.subarray(length);
    return first.subarray(0, length);
  }

  private pump(): void {
    if (this.socket.destroyed || this.socket.isPaused()) return;
    let terminate = false;
    try {
      while (!terminate) {
        // A start-up packet is its length and a protocol code; every later message a type byte and its length.
        const header = this.startup ? 4 : 5;
        if (this.buffered < header) break;
        const length = this.startup ? this.head(4).readInt32BE(0) : 1 + this.head(5).readInt32BE(1);
        if (length < (this.startup ? 8 : 5) || length > MAX_MESSAGE) throw new Error(`invalid message length ${length}`);
        if (this.buffered < length) break;
        const frontend = this.take(length);
        if (this.startup) {
          const code = frontend.readInt32BE(4);
          if (code === SSL_REQUEST || code === GSSENC_REQUEST) {
            this.socket.write('N'); // no encryption on a local socket; the client goes on with its start-up packet
            continue;
          }
          if (code === CANCEL_REQUEST) {
            this.socket.end();
            return;
          }
          this.startup = false;
        }
        this.backend.run(frontend);
        if (frontend[0] === 0x58 /* X: Terminate */) terminate = true;
      }
    } catch (err) {
      this.backend.discard();
      this.socket.destroy(err as Error);
      return;
    }
    const answer = this.backend.take();
    // Backpressure: a client that does not read its answers is not served more until it has.
    if (answer.length > 0 && !this.socket.write(answer)) this.socket.pause();
    if (terminate) this.socket.end();
  }
}

export interface WireServer {
  /** Runs `job` with the backend when no client exchange is in progress; false (and nothing run) otherwise. */
  whenIdle(job: (backend: WireBackend) => void): boolean;
  stop(): Promise<void>;
}

/**
 * Serves `db` on the unix socket `socketPath`, one client at a time (the service's pool holds that one connection
 * for its whole life); a second client gets PostgreSQL's "too many clients" error.
 */
export async function serveWire(db: PGlite, pglite: PgliteCallbacks, socketPath: string): Promise<WireServer> {
  const backend = new WireBackend(db, pglite);
  let client: { socket: Socket; connection: Connection } | undefined;
  const sockets = new Set<Socket>();
  const server: Server = createServer((socket) => {
    sockets.add(socket);
    socket.once('close', () => sockets.delete(socket));
    if (client) {
      socket.on('error', () => {});
      socket.end(errorResponse('FATAL', '53300', 'sorry, too many clients already'));
      return;
    }
    const current = { socket, connection: new Connection(socket, backend) };
    client = current;
    socket.on('error', () => {}); // a reset by the client ends the connection like a close
    socket.on('close', () => {
      if (client !== current) return;
      client = undefined;
      try { backend.endSession(); } catch { /* the backend is gone: the next client will find out */ }
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(socketPath, () => { server.off('error', reject); resolve(); });
  });
  return {
    whenIdle(job) {
      if (client && !client.connection.idle) return false;
      job(backend);
      return true;
    },
    async stop() {
      // Refused clients may not have closed their end yet: close() waits for every connection.
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      backend.close();
    },
  };
}
