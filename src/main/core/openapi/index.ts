/**
 * OpenAPI specifications: reading one from its text (and refusing what is not one, with the line
 * and why), what an operation of it shows, the spec files of a folder, and the organization's
 * specs on the server (list, pull into the sync folder, publish a file as a new version).
 */
export { HTTP_METHODS, MAX_SPEC_BYTES, readSpecText, type SpecText } from './spec-text';
export {
  type ContentView,
  describeOperation,
  findOperation,
  findWebhook,
  type OperationView,
  type ParameterView,
  schemaNames,
  type SchemaView,
} from './operations';
export { type LocalSpec, LocalSpecs, OPENAPI_DIR } from './local';
export {
  type PublishResult,
  type PulledState,
  type PullResult,
  publishSpec,
  pulledFile,
  pullSpecs,
  refreshSpecs,
  refreshVersions,
  SPEC_SLUG,
  specFolder,
} from './remote';
