// A job's object storage settings as a plain type: handler contexts (public through the emulator's
// serverless options) name it, so it is written out by hand; schemas.ts holds its schema equal to it.

/** Object storage the handler may use for large inputs and outputs. */
export interface S3Config {
  accessId: string;
  accessSecret: string;
  bucketName: string;
  /** An http(s) URL. */
  endpointUrl: string;
}
