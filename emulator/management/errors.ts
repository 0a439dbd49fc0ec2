/**
 * Why the service refuses a command: the status it answers with, what it says, and each field at
 * fault. Commands throw these; each surface renders them in its own error format (/v1
 * `{"error", "status"}`, /api/v2 problem+json whose `errors[]` lists the fields), so a refusal is
 * stated once, in the domain, and worded by the rule that makes it.
 */
import { HttpError } from "../http/errors";

export class Refusal extends HttpError {
  constructor(status: number, message: string, errors: readonly string[] = [], headers: Readonly<Record<string, string>> = {}) {
    super(status, message, headers, errors);
    this.name = "Refusal";
  }
}

/** A field whose value the account's state, or another field, rejects: 400 unless the rule says otherwise. */
export function invalid(field: string, message: string, status = 400): Refusal {
  const text = `invalid ${field}: ${message}`;
  return new Refusal(status, text, [text]);
}

/** The request is valid but the current state forbids it (in use, name taken, action that does not fit). */
export function conflict(message: string, errors: readonly string[] = []): Refusal {
  return new Refusal(409, message, errors);
}

/** Same wording as the service: `{"error":"pod not found","status":404}`. */
export function notFound(what: string): Refusal {
  return new Refusal(404, `${what} not found`);
}

/**
 * No GPU or CPU to place on: a conflict in the service's own words (/v1 answers it 409); /api/v2
 * answers a create that cannot be placed 400 and a start 409 (management-api-v2-today.md 5.2).
 */
export const NO_CAPACITY_STATUS = 409;

export class NoCapacity extends Refusal {
  constructor(message: string) {
    super(NO_CAPACITY_STATUS, message);
    this.name = "NoCapacity";
  }
}
