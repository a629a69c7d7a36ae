/** What a command prints as it is (a CSV report) instead of the one JSON line every other command prints. */
export class TextOutput {
  constructor(readonly text: string) {}
}
