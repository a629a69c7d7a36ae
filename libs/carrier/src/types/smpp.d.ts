// The parts of the `smpp` package (0.5.1, plain JavaScript without types) that this workspace
// uses. Field names are those of the SMPP specification, as the package spells them.
declare module 'smpp' {
  import type { EventEmitter } from 'node:events';
  import type { Server, Socket } from 'node:net';
  import type { Duplex } from 'node:stream';
  import type { ConnectionOptions } from 'node:tls';

  /** A decoded PDU: the header fields, and the command's parameters and TLVs by their spec names. */
  export class PDU {
    constructor(command: string, options?: Record<string, unknown>);
    /** Decodes a whole PDU (header included). */
    constructor(pdu: Buffer);
    command: string;
    command_id: number;
    command_status: number;
    sequence_number: number;
    [parameter: string]: unknown;
    isResponse(): boolean;
    /** The response PDU to this request (generic_nack for an unknown command). */
    response(options?: Record<string, unknown>): PDU;
    /** Encodes the PDU, header included. */
    toBuffer(): Buffer;
    /** The longest PDU a session accepts (16384). */
    static maxLength: number;
  }

  /** What Session.send asks of a PDU: a PDU, or one encoded elsewhere (outgoing-pdus.ts). */
  export interface SendablePdu {
    sequence_number: number;
    isResponse(): boolean;
    toBuffer(): Buffer;
  }

  export class Session extends EventEmitter {
    /** A session on a stream already open (the package reads and writes it as it would a socket). */
    constructor(options: { socket: Socket | Duplex });
    readonly socket: Socket;
    /** Stops reading PDUs until resume(). */
    pause(): void;
    resume(): void;
    /** Sends a PDU (its sequence_number set for a request); false when the socket is not writable. */
    send(pdu: PDU | SendablePdu, responseCallback?: (response: PDU) => void, sendCallback?: (sent: PDU) => void): boolean;
    bind_transceiver(options: Record<string, unknown>, responseCallback?: (response: PDU) => void): boolean;
    submit_sm(options: Record<string, unknown>, responseCallback?: (response: PDU) => void): boolean;
    enquire_link(options: Record<string, unknown>, responseCallback?: (response: PDU) => void): boolean;
    unbind(options: Record<string, unknown>, responseCallback?: (response: PDU) => void): boolean;
    /** Ends the socket (half-close); `close` follows. */
    close(callback?: () => void): void;
    destroy(callback?: () => void): void;
  }

  /** A TCP server that makes a Session of every connection. */
  export function createServer(listener: (session: Session) => void): Server;

  /** How the package codes text, by encoding name; `ASCII` is GSM 03.38, used for data_coding 0. */
  export const encodings: Record<
    'ASCII' | 'LATIN1' | 'UCS2',
    { match(text: string): boolean; encode(text: string): Buffer; decode(octets: Buffer): string }
  > & {
    /** The encoding of data_coding 0 (the SMSC default): 'ASCII' unless a user changed it. */
    default: string;
  };

  /**
   * Opens a connection and a session on it at once: TCP, or with `tls: true` TLS (the options go
   * to tls.connect as they are). A TLS session emits 'secureConnect' once the handshake is done.
   */
  export function connect(
    options: { host: string; port: number } | ({ host: string; port: number; tls: true } & ConnectionOptions),
    listener?: () => void,
  ): Session;
}
