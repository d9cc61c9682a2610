// Offline validation of a SAM template (no AWS, no Docker):
//  1. AWS's SAM JSON schema (schema/sam.schema.json) for the template and every AWS::Serverless::*
//     resource, checked per resource so errors name the resource and the property;
//  2. the CloudFormation resource specification (@aws-cdk/cfnspec) for every other resource:
//     known type, known property names, required properties, primitive types of literal values;
//  3. references: every Ref, GetAtt and ${} in Sub names a parameter, resource or pseudo parameter;
//     SAM function properties passed through to AWS::Lambda::Function are checked against it;
//  4. rules neither catches: SnapStart forbids more than 512 MB of ephemeral storage.
// Usage: node validate.mjs TEMPLATE...   Exit 0 when every template is valid, 1 otherwise.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { parseDocument } from 'yaml';
import Ajv from 'ajv-draft-04';

const require = createRequire(import.meta.url);
const cfnspec = require('@aws-cdk/cfnspec');
const here = new URL('.', import.meta.url).pathname;
const samSchema = JSON.parse(readFileSync(`${here}schema/sam.schema.json`, 'utf8'));
const spec = cfnspec.specification();

// CloudFormation's short-form intrinsics, read as their long forms.
const FUNCTIONS = ['Base64', 'Cidr', 'FindInMap', 'GetAZs', 'ImportValue', 'Join', 'Select', 'Split',
  'Sub', 'Transform', 'And', 'Equals', 'If', 'Not', 'Or', 'ToJsonString', 'Length'];
const customTags = [
  { tag: '!Ref', resolve: (v) => ({ Ref: v }) },
  { tag: '!Condition', resolve: (v) => ({ Condition: v }) },
  { tag: '!GetAtt', resolve: (v) => ({ 'Fn::GetAtt': v.split('.', 2) }) },
  { tag: '!GetAtt', collection: 'seq', resolve: (v) => ({ 'Fn::GetAtt': v.toJSON() }) },
];
for (const f of FUNCTIONS) {
  customTags.push({ tag: `!${f}`, resolve: (v) => ({ [`Fn::${f}`]: v }) });
  customTags.push({ tag: `!${f}`, collection: 'seq', resolve: (v) => ({ [`Fn::${f}`]: v.toJSON() }) });
  customTags.push({ tag: `!${f}`, collection: 'map', resolve: (v) => ({ [`Fn::${f}`]: v.toJSON() }) });
}

const PSEUDO = new Set(['AWS::AccountId', 'AWS::NotificationARNs', 'AWS::NoValue', 'AWS::Partition',
  'AWS::Region', 'AWS::StackId', 'AWS::StackName', 'AWS::URLSuffix']);

const isIntrinsic = (v) => v !== null && typeof v === 'object' && !Array.isArray(v)
  && Object.keys(v).length === 1 && (Object.keys(v)[0] === 'Ref' || Object.keys(v)[0].startsWith('Fn::'));

function samDefinition(type) {
  const name = `samtranslator__internal__schema_source__aws_serverless_${type.split('::')[2].toLowerCase()}__Resource`;
  return samSchema.definitions[name] ? name : null;
}

function checkPrimitive(value, primitive, where, errors) {
  if (isIntrinsic(value) || primitive === 'Json') return;
  const ok = {
    String: () => typeof value === 'string' || typeof value === 'number',
    Integer: () => Number.isInteger(Number(value)),
    Long: () => Number.isInteger(Number(value)),
    Double: () => !Number.isNaN(Number(value)),
    Boolean: () => typeof value === 'boolean' || value === 'true' || value === 'false',
    Timestamp: () => typeof value === 'string',
  }[primitive];
  if (ok && !ok()) errors.push(`${where}: expected ${primitive}, got ${JSON.stringify(value)}`);
}

function checkProperties(properties, definition, resourceType, where, errors) {
  if (isIntrinsic(properties)) return;
  if (properties === null || typeof properties !== 'object' || Array.isArray(properties)) {
    errors.push(`${where}: expected an object`);
    return;
  }
  for (const [name, p] of Object.entries(definition.Properties ?? {})) {
    if (p.Required && !(name in properties)) errors.push(`${where}: missing required property ${name}`);
  }
  for (const [name, value] of Object.entries(properties)) {
    const p = (definition.Properties ?? {})[name];
    if (!p) {
      errors.push(`${where}: unknown property ${name} (known: ${Object.keys(definition.Properties ?? {}).join(', ')})`);
      continue;
    }
    checkValue(value, p, resourceType, `${where}.${name}`, errors);
  }
}

function checkValue(value, p, resourceType, where, errors) {
  if (isIntrinsic(value)) return;
  const itemType = (t) => spec.PropertyTypes[`${resourceType}.${t}`] ?? spec.PropertyTypes[t];
  if (p.PrimitiveType) {
    checkPrimitive(value, p.PrimitiveType, where, errors);
  } else if (p.Type === 'List') {
    if (!Array.isArray(value)) { errors.push(`${where}: expected a list`); return; }
    value.forEach((v, i) => {
      if (p.PrimitiveItemType) checkPrimitive(v, p.PrimitiveItemType, `${where}[${i}]`, errors);
      else if (itemType(p.ItemType)) checkProperties(v, itemType(p.ItemType), resourceType, `${where}[${i}]`, errors);
    });
  } else if (p.Type === 'Map') {
    if (typeof value !== 'object' || Array.isArray(value)) { errors.push(`${where}: expected a map`); return; }
    for (const [k, v] of Object.entries(value)) {
      if (p.PrimitiveItemType) checkPrimitive(v, p.PrimitiveItemType, `${where}.${k}`, errors);
      else if (itemType(p.ItemType)) checkProperties(v, itemType(p.ItemType), resourceType, `${where}.${k}`, errors);
    }
  } else if (p.Type && itemType(p.Type)) {
    checkProperties(value, itemType(p.Type), resourceType, where, errors);
  }
}

function checkReferences(node, names, where, errors) {
  if (Array.isArray(node)) { node.forEach((v, i) => checkReferences(v, names, `${where}[${i}]`, errors)); return; }
  if (node === null || typeof node !== 'object') return;
  for (const [k, v] of Object.entries(node)) {
    if (k === 'Ref' && typeof v === 'string' && !names.has(v) && !PSEUDO.has(v)) {
      errors.push(`${where}: Ref to unknown ${v}`);
    } else if (k === 'Fn::GetAtt') {
      const target = Array.isArray(v) ? v[0] : String(v).split('.')[0];
      if (!names.has(target)) errors.push(`${where}: GetAtt of unknown ${target}`);
    } else if (k === 'Fn::Sub') {
      const text = Array.isArray(v) ? v[0] : v;
      const local = Array.isArray(v) && v[1] ? new Set(Object.keys(v[1])) : new Set();
      for (const m of String(text).matchAll(/\$\{([^}!]+)\}/g)) {
        const ref = m[1].split('.')[0];
        if (!names.has(ref) && !PSEUDO.has(m[1]) && !local.has(m[1])) errors.push(`${where}: Sub of unknown ${m[1]}`);
      }
    }
    checkReferences(v, names, `${where}.${k}`, errors);
  }
}

function validate(file) {
  const errors = [];
  const doc = parseDocument(readFileSync(file, 'utf8'), { customTags });
  if (doc.errors.length) return doc.errors.map((e) => `YAML: ${e.message}`);
  const template = doc.toJSON();
  const ajv = new Ajv({ allErrors: true, strict: false });
  ajv.addSchema(samSchema, 'sam');
  const describe = (errs) => errs.map((e) => `${e.instancePath || '/'} ${e.message}${e.params?.additionalProperty ? ` (${e.params.additionalProperty})` : ''}`);
  if (template.Globals && !ajv.validate({ $ref: 'sam#/definitions/__main____Globals' }, template.Globals)) {
    describe(ajv.errors).forEach((e) => errors.push(`Globals${e}`));
  }
  const resources = template.Resources ?? {};
  if (!Object.keys(resources).length) errors.push('Resources: a template needs at least one resource');
  const names = new Set([...Object.keys(template.Parameters ?? {}), ...Object.keys(resources)]);
  for (const [name, resource] of Object.entries(resources)) {
    const type = resource.Type;
    if (typeof type !== 'string') { errors.push(`Resources.${name}: missing Type`); continue; }
    if (type.startsWith('AWS::Serverless::')) {
      const definition = samDefinition(type);
      if (!definition) { errors.push(`Resources.${name}: unknown SAM resource type ${type}`); continue; }
      if (!ajv.validate({ $ref: `sam#/definitions/${definition}` }, resource)) {
        describe(ajv.errors).forEach((e) => errors.push(`Resources.${name}${e}`));
      }
      // SAM passes most function properties through to AWS::Lambda::Function unchecked: check
      // their values against that resource's specification.
      if (type === 'AWS::Serverless::Function') {
        const lambda = spec.ResourceTypes['AWS::Lambda::Function'];
        for (const [property, value] of Object.entries(resource.Properties ?? {})) {
          const p = lambda.Properties[property];
          if (p && (p.PrimitiveType || p.Type !== undefined)) {
            checkValue(value, p, 'AWS::Lambda::Function', `Resources.${name}.Properties.${property}`, errors);
          }
        }
      }
    } else {
      const definition = spec.ResourceTypes[type];
      if (!definition) { errors.push(`Resources.${name}: unknown resource type ${type}`); continue; }
      checkProperties(resource.Properties ?? {}, definition, type, `Resources.${name}.Properties`, errors);
    }
    const p = resource.Properties ?? {};
    const globalFunction = template.Globals?.Function ?? {};
    const size = p.EphemeralStorage?.Size ?? globalFunction.EphemeralStorage?.Size;
    if (type === 'AWS::Serverless::Function' && (p.SnapStart ?? globalFunction.SnapStart) && Number(size) > 512) {
      errors.push(`Resources.${name}: SnapStart does not support ephemeral storage above 512 MB (asks for ${size})`);
    }
  }
  checkReferences(template.Resources, names, 'Resources', errors);
  checkReferences(template.Outputs ?? {}, names, 'Outputs', errors);
  return errors;
}

let failed = false;
for (const file of process.argv.slice(2)) {
  const errors = validate(file);
  if (errors.length) {
    failed = true;
    console.log(`${file}: INVALID`);
    // anyOf/oneOf branches repeat one cause many times
    [...new Set(errors)].forEach((e) => console.log(`  ${e}`));
  } else {
    console.log(`${file}: valid (AWS SAM schema, CloudFormation resource specification ${spec.ResourceSpecificationVersion})`);
  }
}
process.exit(failed ? 1 : 0);
