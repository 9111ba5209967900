import type { ElicitRequestFormParams } from '../protocol/wire.types.js';
import { standardJsonSchema, StandardValidator, type StandardSchemaV1 } from '../schema/index.js';

/** A Standard Schema asked as a form: its `requestedSchema` and its validator, made once per schema object. */
interface StandardForm {
  requestedSchema: ElicitRequestFormParams['requestedSchema'];
  validator: StandardValidator;
}

const forms = new WeakMap<StandardSchemaV1, StandardForm>();

/**
 * The form of an `elicit(message, schema)` with a Standard Schema: the input side of its JSON Schema,
 * reduced to what a `requestedSchema` holds (`type`, `properties`, `required`: no `$schema` or
 * `additionalProperties`), converted on first use and kept with the schema object.
 */
export function standardForm(schema: StandardSchemaV1): StandardForm {
  let form = forms.get(schema);
  if (form === undefined) {
    const converted = standardJsonSchema(schema, 'input', 'an elicit() form');
    if (converted.type !== 'object' || converted.properties === null || typeof converted.properties !== 'object') {
      throw new Error('An elicit() form schema must be an object schema whose properties are strings, numbers, booleans or enums');
    }
    const required = Array.isArray(converted.required) && converted.required.length > 0 ? { required: converted.required as string[] } : {};
    form = {
      requestedSchema: { type: 'object', properties: converted.properties as ElicitRequestFormParams['requestedSchema']['properties'], ...required },
      validator: new StandardValidator(schema, { messagePrefix: 'Invalid elicitation answer' }),
    };
    forms.set(schema, form);
  }
  return form;
}
