import type { Socket } from 'node:net';

/**
 * Makes the PDUs written to this socket in one tick leave in one writev instead of a write
 * system call each: the `smpp` package writes every PDU on its own, a system call per submit_sm
 * and deliver_sm_resp (docs/decisions/0011-smpp-without-nagle.md). The first write
 * of a tick corks the socket and uncorks it once the tick's synchronous work is done, so nothing
 * waits longer than that.
 */
export function coalesceWrites(socket: Socket): void {
  const write = socket.write;
  let corked = false;
  const uncork = (): void => {
    corked = false;
    socket.uncork();
  };
  socket.write = function (this: Socket, ...args: Parameters<Socket['write']>): boolean {
    if (!corked) {
      corked = true;
      socket.cork();
      process.nextTick(uncork);
    }
    return write.apply(this, args);
  } as Socket['write'];
}
