/** A carrier or route setting the operator gave is not acceptable; the message names the option. */
export class RoutingInputError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'RoutingInputError';
  }
}

/** No carrier of that name. */
export class CarrierNotFoundError extends Error {
  constructor(name: string) {
    super(`no carrier named "${name}"`);
    this.name = 'CarrierNotFoundError';
  }
}
