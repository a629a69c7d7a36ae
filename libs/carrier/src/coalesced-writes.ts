import type { Socket } from 'node:net';

/**
 * Makes the PDUs written to this socket in one tick leave in one writev instead of a write
 * system call each: the `smpp` package writes every PDU on its own, and at thousands of submit_sm
 * and deliver_sm_resp a second those calls were a tenth of the dispatcher's CPU. The first write
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
