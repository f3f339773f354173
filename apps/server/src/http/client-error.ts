import { randomUUID } from 'node:crypto';
import type { Server } from 'node:http';
import type { Socket } from 'node:net';

/**
 * Requests Node's HTTP parser refuses before any handler sees them (headers or URL over
 * 16 KiB, a malformed request line) get the REST error body too, with a request id, in
 * place of Node's bare status line: 431 for oversized headers, 400 otherwise.
 */
export function answerClientErrors(server: Server): void {
  server.on('clientError', (error: NodeJS.ErrnoException, socket: Socket) => {
    if (!socket.writable || (error.code === 'ECONNRESET' && socket.destroyed)) {
      socket.destroy();
      return;
    }
    const tooLarge = error.code === 'HPE_HEADER_OVERFLOW';
    const status = tooLarge ? '431 Request Header Fields Too Large' : '400 Bad Request';
    const requestId = randomUUID();
    const body = JSON.stringify({
      error: {
        code: 'VALIDATION_FAILED',
        message: tooLarge
          ? 'The request line and headers are larger than 16 KiB'
          : 'The request is not valid HTTP',
        requestId,
      },
    });
    socket.end(
      `HTTP/1.1 ${status}\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\n` +
        `X-Request-Id: ${requestId}\r\nConnection: close\r\n\r\n${body}`,
    );
  });
}
