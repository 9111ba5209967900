/**
 * Form-mode elicitation schema types (`PrimitiveSchemaDefinition` of MCP 2026-07-28).
 *
 * Declared as type aliases, not interfaces, so they stay assignable to the open `JsonObject`
 * that `ElicitRequestFormParams.requestedSchema.properties` uses in the wire types.
 */

/** String formats that form mode allows. @publicApi */
export type ElicitationStringFormat = 'email' | 'uri' | 'date' | 'date-time';

/** @publicApi */
export type ElicitationStringSchema = {
  type: 'string';
  title?: string;
  description?: string;
  minLength?: number;
  maxLength?: number;
  format?: ElicitationStringFormat;
  default?: string;
};

/** @publicApi */
export type ElicitationNumberSchema = {
  type: 'number' | 'integer';
  title?: string;
  description?: string;
  minimum?: number;
  maximum?: number;
  default?: number;
};

/** @publicApi */
export type ElicitationBooleanSchema = {
  type: 'boolean';
  title?: string;
  description?: string;
  default?: boolean;
};

/** A titled option of a single- or multi-select enum. @publicApi */
export type ElicitationTitledOption = { const: string; title: string };

/** @publicApi */
export type ElicitationUntitledSingleSelectSchema = {
  type: 'string';
  title?: string;
  description?: string;
  enum: string[];
  default?: string;
};

/** @publicApi */
export type ElicitationTitledSingleSelectSchema = {
  type: 'string';
  title?: string;
  description?: string;
  oneOf: ElicitationTitledOption[];
  default?: string;
};

/** @publicApi */
export type ElicitationUntitledMultiSelectSchema = {
  type: 'array';
  title?: string;
  description?: string;
  minItems?: number;
  maxItems?: number;
  items: { type: 'string'; enum: string[] };
  default?: string[];
};

/** @publicApi */
export type ElicitationTitledMultiSelectSchema = {
  type: 'array';
  title?: string;
  description?: string;
  minItems?: number;
  maxItems?: number;
  items: { anyOf: ElicitationTitledOption[] };
  default?: string[];
};

/** Any property schema form mode allows (the builder never emits the deprecated `enumNames` form). @publicApi */
export type ElicitationPropertySchema =
  | ElicitationStringSchema
  | ElicitationNumberSchema
  | ElicitationBooleanSchema
  | ElicitationUntitledSingleSelectSchema
  | ElicitationTitledSingleSelectSchema
  | ElicitationUntitledMultiSelectSchema
  | ElicitationTitledMultiSelectSchema;

/** The `requestedSchema` of a form-mode elicitation: a flat object of primitive properties. @publicApi */
export type ElicitationRequestedSchema = {
  type: 'object';
  properties: Record<string, ElicitationPropertySchema>;
  required?: string[];
};

/** An option passed to `choice`/`choices`: a plain value, or a value with a display title. @publicApi */
export type ElicitationChoiceOption = string | { value: string; title: string };
