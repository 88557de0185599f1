// A small RFC 6455 WebSocket endpoint on node:http's `upgrade` event, for OpenEnv's /ws. The
// `ws` package is not among this repository's dependencies; what an episode needs is little:
// text messages (fragmented or not) from masked client frames, ping/pong, close, a size cap.
import { createHash } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';

const GUID = '258EAFA5-E914-47DA-95CA-C5AB0DC85B11';

/** One accepted WebSocket connection. */
export interface WebSocketConnection {
  /** Sends one text message. */
  send(text: string): void;
  /** Sends a close frame and ends the connection. Default code 1000. */
  close(code?: number, reason?: string): void;
  /** Called with each complete text message. */
  onMessage(listener: (text: string) => void): void;
  /** Called once when the connection ends, whoever ended it. */
  onClose(listener: () => void): void;
}

/** The `Sec-WebSocket-Accept` value of a `Sec-WebSocket-Key`. */
export function acceptKey(key: string): string {
  return createHash('sha1').update(key + GUID).digest('base64');
}

function frame(opcode: number, payload: Buffer): Buffer {
  const n = payload.length;
  const head = n < 126 ? Buffer.alloc(2) : n < 65_536 ? Buffer.alloc(4) : Buffer.alloc(10);
  head[0] = 0x80 | opcode;
  if (n < 126) head[1] = n;
  else if (n < 65_536) {
    head[1] = 126;
    head.writeUInt16BE(n, 2);
  } else {
    head[1] = 127;
    head.writeBigUInt64BE(BigInt(n), 2);
  }
  return Buffer.concat([head, payload]);
}

/**
 * Completes the handshake of an upgrade request (answers 400 and destroys the socket when it is
 * not a version-13 WebSocket request) and returns the connection. Messages longer than
 * `maxMessageBytes` close it with 1009; unmasked client frames with 1002; binary ones with 1003.
 */
export function acceptWebSocket(request: IncomingMessage, socket: Duplex, head: Buffer, options: { maxMessageBytes: number }): WebSocketConnection | undefined {
  const key = request.headers['sec-websocket-key'];
  if (String(request.headers.upgrade).toLowerCase() !== 'websocket' || request.headers['sec-websocket-version'] !== '13' || typeof key !== 'string') {
    socket.end('HTTP/1.1 400 Bad Request\r\nConnection: close\r\nContent-Length: 0\r\n\r\n', () => socket.destroy());
    return undefined;
  }
  socket.write(['HTTP/1.1 101 Switching Protocols', 'Upgrade: websocket', 'Connection: Upgrade', `Sec-WebSocket-Accept: ${acceptKey(key)}`, '', ''].join('\r\n'));

  const messageListeners: ((text: string) => void)[] = [];
  const closeListeners: (() => void)[] = [];
  let buffer: Buffer = head.length > 0 ? Buffer.from(head) : Buffer.alloc(0);
  let fragments: Buffer[] = [];
  let fragmentBytes = 0;
  let closed = false;

  const finish = (): void => {
    if (closed) return;
    closed = true;
    for (const listener of closeListeners) listener();
  };
  const close = (code = 1000, reason = ''): void => {
    if (!closed && socket.writable) {
      const payload = Buffer.alloc(2 + Buffer.byteLength(reason));
      payload.writeUInt16BE(code, 0);
      payload.write(reason, 2);
      // Our side is done once the close frame is out: do not wait for the peer's FIN.
      socket.end(frame(0x8, payload), () => socket.destroy());
    } else {
      socket.destroy();
    }
    finish();
  };

  const parse = (): void => {
    while (!closed && buffer.length >= 2) {
      const b0 = buffer[0] as number;
      const b1 = buffer[1] as number;
      const fin = (b0 & 0x80) !== 0;
      const opcode = b0 & 0x0f;
      const masked = (b1 & 0x80) !== 0;
      let length = b1 & 0x7f;
      let offset = 2;
      if (length === 126) {
        if (buffer.length < 4) return;
        length = buffer.readUInt16BE(2);
        offset = 4;
      } else if (length === 127) {
        if (buffer.length < 10) return;
        const big = buffer.readBigUInt64BE(2);
        if (big > BigInt(options.maxMessageBytes)) return close(1009, 'message too big');
        length = Number(big);
        offset = 10;
      }
      if (!masked) return close(1002, 'client frames must be masked');
      if (length > options.maxMessageBytes) return close(1009, 'message too big');
      if (buffer.length < offset + 4 + length) return;
      const mask = buffer.subarray(offset, offset + 4);
      const payload = Buffer.from(buffer.subarray(offset + 4, offset + 4 + length));
      for (let i = 0; i < payload.length; i++) payload[i] = (payload[i] as number) ^ (mask[i % 4] as number);
      buffer = buffer.subarray(offset + 4 + length);
      if (opcode === 0x8) return close(1000);
      if (opcode === 0x9) {
        socket.write(frame(0xa, payload));
        continue;
      }
      if (opcode === 0xa) continue;
      if (opcode === 0x2) return close(1003, 'text messages only');
      if (opcode !== 0x1 && opcode !== 0x0) return close(1002, `unknown opcode ${opcode}`);
      fragmentBytes += payload.length;
      if (fragmentBytes > options.maxMessageBytes) return close(1009, 'message too big');
      fragments.push(payload);
      if (!fin) continue;
      const text = Buffer.concat(fragments).toString('utf8');
      fragments = [];
      fragmentBytes = 0;
      for (const listener of messageListeners) listener(text);
    }
  };

  socket.on('data', (chunk: Buffer) => {
    buffer = buffer.length === 0 ? chunk : Buffer.concat([buffer, chunk]);
    parse();
  });
  // node:http's sockets allow half-open connections: the peer's FIN ends ours too.
  socket.on('end', () => socket.destroy());
  socket.on('close', finish);
  socket.on('error', () => socket.destroy());
  queueMicrotask(parse);

  return {
    send(text) {
      if (!closed) socket.write(frame(0x1, Buffer.from(text, 'utf8')));
    },
    close,
    onMessage(listener) {
      messageListeners.push(listener);
    },
    onClose(listener) {
      closeListeners.push(listener);
    },
  };
}
