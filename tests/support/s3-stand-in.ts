/**
 * A local S3 server for the tests (issue 27, decision 0080): `s3rver` from npm, in this process,
 * on 127.0.0.1, keeping its objects in a temporary folder. It speaks enough of S3's API for
 * @aws-sdk/client-s3 (put, get, head, list, delete) with path-style URLs.
 */
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import S3rver from "s3rver";

export interface S3StandIn {
  endpoint: string;
  bucket: string;
  /** What a shop process needs to use the bucket. */
  env: Record<string, string>;
  close(): Promise<void>;
}

export async function startS3StandIn(bucket = "vida-media"): Promise<S3StandIn> {
  // The AWS SDK warns once per process that its next versions need Node 22 (production runs 22).
  process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED = "true";
  const directory = await mkdtemp(path.join(tmpdir(), "s3-stand-in-"));
  const server = new S3rver({ port: 0, address: "127.0.0.1", silent: true, directory, configureBuckets: [{ name: bucket, configs: [] }] });
  const { port } = await server.run();
  const endpoint = `http://127.0.0.1:${port}`;
  return {
    endpoint,
    bucket,
    env: {
      S3_BUCKET: bucket,
      S3_ENDPOINT: endpoint,
      S3_REGION: "us-east-1",
      S3_FORCE_PATH_STYLE: "true",
      // s3rver's own fixed credentials.
      S3_ACCESS_KEY_ID: "S3RVER",
      S3_SECRET_ACCESS_KEY: "S3RVER",
    },
    async close() {
      await server.close();
      await rm(directory, { recursive: true, force: true });
    },
  };
}
