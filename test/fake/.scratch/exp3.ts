import Ajv2020 from 'ajv/dist/2020';
import addFormats from 'ajv-formats';
import { loadSpec } from '../openapi';
let t = performance.now();
const spec = loadSpec();
console.log('load', (performance.now() - t).toFixed(1));
t = performance.now();
const ajv = new Ajv2020({ strict: true, strictTypes: false, strictRequired: false, strictTuples: false, validateSchema: false, allErrors: false });
addFormats(ajv); ajv.addFormat('emoji', true); ajv.addFormat('icon', true);
ajv.addSchema(spec.defsDocument);
console.log('ajv+addSchema', (performance.now() - t).toFixed(1));
for (const name of ['User', 'Space', 'JSONDocument', 'RevisionPage', 'Revision', 'ChangeRequest', 'Comment', 'Site', 'PublishedContentSite']) {
  t = performance.now();
  ajv.compile({ $ref: 'gitbook-openapi#/$defs/' + name });
  console.log(name, (performance.now() - t).toFixed(1));
}
