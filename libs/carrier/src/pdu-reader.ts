import { PDU, type Session } from 'smpp';
import { decodePdu } from './incoming-pdus';
import { rememberOctets } from './mobile-originated';

/** What the smpp package's Session (0.5.1, pinned) keeps for its reading loop, which this replaces. */
interface SessionInternals {
  paused: boolean;
  _busy: boolean;
  _callbacks: Record<number, ((pdu: PDU) => void) | undefined>;
  _extractPDUs: () => void;
}

const HEADER_LENGTH = 16;

/**
 * Makes the session read its socket a chunk at a time and decode PDUs with decodePdu. The
 * package's loop reads each PDU with two `stream.read(n)` calls, copies it into a new buffer and
 * decodes it generically; this loop slices PDUs out of whatever the socket has and dispatches them
 * exactly as the package does ('pdu', then the command's event, then the response callback), and
 * pause()/resume() keep working. Call it before the socket can have received anything.
 */
export function readPdusByChunk(session: Session): void {
  const internals = session as unknown as SessionInternals;
  const socket = session.socket;
  let pending: Buffer = Buffer.alloc(0);

  /** The next whole PDU from what was read, reading more when needed; null when the socket has no more yet. */
  const nextPdu = (): Buffer | null => {
    for (;;) {
      if (pending.length >= 4) {
        const length = pending.readUInt32BE(0);
        if (length > PDU.maxLength) throw new Error(`PDU length was too large (${length}, maximum is ${PDU.maxLength}).`);
        if (length < HEADER_LENGTH) throw new Error(`PDU length was too small (${length}, the header alone is ${HEADER_LENGTH}).`);
        if (pending.length >= length) {
          const pdu = pending.subarray(0, length);
          pending = pending.subarray(length);
          return pdu;
        }
      }
      const chunk = socket.read() as Buffer | null;
      if (!chunk) return null;
      pending = pending.length === 0 ? chunk : Buffer.concat([pending, chunk]);
    }
  };

  const extract = (): void => {
    if (internals._busy) return;
    internals._busy = true;
    while (!internals.paused) {
      let pdu: PDU;
      try {
        const bytes = nextPdu();
        if (!bytes) break;
        pdu = decodePdu(bytes);
        if (pdu.command === 'deliver_sm') rememberOctets(pdu, bytes);
      } catch (error) {
        // As the package does: the session reads no more, and its owner hears why.
        session.emit('error', error);
        return;
      }
      session.emit('pdu', pdu);
      session.emit(pdu.command, pdu);
      const callback = pdu.isResponse() ? internals._callbacks[pdu.sequence_number] : undefined;
      if (callback) {
        callback(pdu);
        delete internals._callbacks[pdu.sequence_number];
      }
    }
    internals._busy = false;
  };

  socket.removeAllListeners('readable');
  socket.on('readable', extract);
  internals._extractPDUs = extract;
}
