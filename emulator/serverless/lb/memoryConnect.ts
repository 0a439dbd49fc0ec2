/**
 * In-memory connections from the proxy to a worker's HTTP server.
 *
 * Why: the worker's node:http server and the proxy live in the same process, and a loopback TCP
 * hop costs two extra socket writes and reads per request, which dominates the proxy's cost (on
 * the reference machine it alone held the proxy under 40% of a direct request's rate). Node's HTTP
 * server accepts any Duplex as a connection (`server.emit("connection", duplex)`, documented), so
 * the proxy hands the worker one side of a stream pair and undici speaks HTTP/1.1 on the other:
 * the same parser, the same request listener, the same keep-alive and failure behaviour, no
 * syscalls. The worker's TCP listener stays real (health checks use it).
 *
 * Node's duplexPair does not propagate destruction; closing is wired here both ways, so a worker
 * that destroys its socket is seen by undici as a closed connection (-> 502), and a connection
 * undici drops (abort, idle timeout, pool destroyed) ends the worker's side too.
 */
import type { Server } from "node:http";
import type { Socket } from "node:net";
import { duplexPair, type Duplex } from "node:stream";
import type { buildConnector } from "undici";

function link(from: Duplex, to: Duplex): void {
  from.once("close", () => {
    if (!to.destroyed) to.destroy();
  });
}

/** An undici connector that opens each connection straight into `server`. */
export function memoryConnector(server: Server, port: number): buildConnector.connector {
  return (_options, callback) => {
    const [client, worker] = duplexPair();
    // What a listener may read off a TCP socket: keep it answering like one.
    Object.assign(worker, { remoteAddress: "127.0.0.1", remoteFamily: "IPv4", localAddress: "127.0.0.1", localPort: port });
    link(client, worker);
    link(worker, client);
    server.emit("connection", worker);
    // Asynchronously: undici ignores a connection handed back inside its own connect call.
    // The pair is a Duplex, which is all undici's HTTP/1.1 client uses of a socket.
    process.nextTick(callback, null, client as unknown as Socket);
  };
}
