export * from './elicitation-schema.types.js';
export {
  BooleanPropertyCustomizer,
  ChoicePropertyCustomizer,
  ChoicesPropertyCustomizer,
  ElicitationSchemaBuilder,
  NumberPropertyCustomizer,
  StringPropertyCustomizer,
} from './elicitation-schema.builder.js';
export type { PropertyCustomizerFn } from './elicitation-schema.builder.js';
export { ElicitResult } from './elicit-result.js';
export { validateElicitResponse } from './elicit-response.validator.js';
export type { ElicitResponseValidation, RequestedSchemaLike } from './elicit-response.validator.js';
