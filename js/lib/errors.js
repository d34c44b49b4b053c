// The error every failed call rejects with: twinrt's message and its status name.
export class TwinrtError extends Error {
  constructor(message, code) {
    super(message);
    this.name = 'TwinrtError';
    this.code = code;
  }
}
