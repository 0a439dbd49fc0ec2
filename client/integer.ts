// The one name for "a whole number" in the declarations the SDK exports and the plugin's schema is
// generated from (scripts/lib/pluginSchema): a field declared `Integer` is typed `integer` in
// plugin/schema.json, so the Python SDK gives it as `int` and the Go SDK as `int`, where a plain
// `number` is a float. Declare a field `Integer` only where a source says it is whole: the
// service's reference (`type=integer`, as test/support/fixtures/v2-wire.json records it; a test
// holds the two equal) or this package's own check that refuses fractions.

/** A whole number. At run time a `number` like any other; the name types it `integer` in the plugin's schema. */
export type Integer = number;
