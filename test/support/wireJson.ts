/** Wire JSON in the emulator's tests: loosely typed, so that each test asserts the shape it expects, field by field. */
// biome-ignore lint/suspicious/noExplicitAny: response bodies are checked field by field in the tests
export type Json = any;
