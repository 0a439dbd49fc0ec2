// Account secrets as the service names them (management-api-v2-today.md section 2): the name rules
// and the placeholder an env value holds to receive a secret's value when a pod or worker boots.

/** The platform's upper-case env prefix: placeholders start with it, and secret names may not. */
export const SERVICE_ENV_PREFIX = "GPUCLOUD";

/** Allowed names: a letter or `_`, then letters, digits, `_ . - /`; 1 to 191 characters. */
export const SECRET_NAME_PATTERN = /^[a-zA-Z_][a-zA-Z0-9_.\-/]*$/;
export const SECRET_NAME_MAX_LENGTH = 191;
/** A value must be strictly under 16 MiB of UTF-8. */
export const SECRET_VALUE_MAX_BYTES = 16 * 1024 * 1024;
/** A description holds at most 65,535 bytes of UTF-8. */
export const SECRET_DESCRIPTION_MAX_BYTES = 65_535;

/**
 * The env value that the service replaces with the secret's value when a pod or worker boots:
 * `{{ GPUCLOUD_SECRET_<name> }}`. The stored configuration keeps this text; it is not secret.
 */
export function secretPlaceholder(name: string): string {
  return `{{ ${SERVICE_ENV_PREFIX}_SECRET_${name} }}`;
}
