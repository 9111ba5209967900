import { getMcpAuth } from '../auth/mcp-auth-info.js';
import type { McpAuthInfo } from '../auth/mcp-auth.interfaces.js';
import { ElicitResult } from '../elicitation/elicit-result.js';
import { ElicitationSchemaBuilder } from '../elicitation/elicitation-schema.builder.js';
import { standardForm } from '../elicitation/standard-form.js';
import { InvalidParamsError } from '../protocol/mcp.error.js';
import { isStandardSchema, type McpSchemaOutput, type McpStandardSchema } from '../schema/index.js';
import { createProgressSource, type ProgressSink, type ProgressSource } from '../progress/index.js';
import type {
  ClientCapabilities,
  ElicitRequestFormParams,
  ElicitResponse,
  Implementation,
  InputRequests,
  InputResponses,
  JsonObject,
  RequestId,
} from '../protocol/wire.types.js';
import type {
  ElicitationForm,
  ElicitOptions,
  McpPromptContext,
  McpResourceContext,
  McpToolContext,
} from './mcp-context.interface.js';
import type { McpCall } from './mcp-call.js';

/** Asks the client for inputs at the next position of the call's input rounds (MRTR). */
export type AskInputs = (requests: InputRequests) => InputResponses;

/**
 * What every handler context offers: request facts, progress and elicitation. Made per handler
 * run; closed when the run settles, after which asking throws. Each call kind has its own subclass
 * that adds what names its target (`toolName`, `promptName`, `uri`), so each name means one thing.
 */
export abstract class McpHandlerContext {
  private progressSource: ProgressSource | undefined;
  private settled = false;
  private position = 0;

  constructor(
    protected readonly call: McpCall,
    /** Tool name, prompt name, resource URI, or the completed prompt or template. */
    readonly target: string,
    private readonly askInputs: AskInputs,
    /** Where the emitters report: the call's own sink, or the run's filter of it when the run may be a replay. */
    private readonly progressSink: ProgressSink = call.progressSink,
  ) {}

  /** Made on first use: most handlers report no progress. */
  private get progress(): ProgressSource {
    return (this.progressSource ??= createProgressSource(this.progressSink));
  }

  get requestId(): RequestId {
    return this.call.request.id;
  }
  get protocolVersion(): string {
    return this.call.meta.protocolVersion;
  }
  get clientInfo(): Implementation | undefined {
    return this.call.meta.clientInfo;
  }
  get clientCapabilities(): ClientCapabilities {
    return this.call.meta.clientCapabilities;
  }
  get meta(): JsonObject {
    return this.call.meta.raw;
  }
  get signal(): AbortSignal {
    return this.call.signal;
  }
  get auth(): McpAuthInfo | undefined {
    return getMcpAuth(this.call.httpRequest);
  }
  get sessionId(): string | undefined {
    return this.call.sessionId;
  }

  sendNotification(method: string, params?: JsonObject): void {
    this.call.notify({ jsonrpc: '2.0', method, ...(params ? { params } : {}) });
  }

  countingProgress(total: number) {
    return this.progress.countingProgress(total);
  }
  longProgress(total: number | null) {
    return this.progress.longProgress(total);
  }
  doubleProgress(total: number | null) {
    return this.progress.doubleProgress(total);
  }
  percentProgress() {
    return this.progress.percentProgress();
  }
  /** One value at a time, each with its total (the emitters share the request's last value, so the order is checked all the same). */
  async reportProgress({ progress, total, message }: { progress: number; total?: number; message?: string }): Promise<void> {
    this.progress.doubleProgress(total ?? null).emit(progress, message);
  }

  elicit<S extends McpStandardSchema>(message: string, schema: S, options?: ElicitOptions): Promise<ElicitResult<McpSchemaOutput<S> & object>>;
  elicit(message: string, form: ElicitationForm, options?: ElicitOptions): Promise<ElicitResult>;
  async elicit(message: string, form: ElicitationForm | McpStandardSchema, options: ElicitOptions = {}): Promise<ElicitResult<object>> {
    // A Standard Schema first: an ArkType schema is a function too, like a builder callback.
    const standard = isStandardSchema(form) ? standardForm(form) : undefined;
    const requestedSchema: ElicitRequestFormParams['requestedSchema'] = standard
      ? standard.requestedSchema
      : typeof form === 'function'
        ? (form as Extract<ElicitationForm, Function>)(new ElicitationSchemaBuilder()).build()
        : (form as ElicitRequestFormParams['requestedSchema']);
    const key = options.key ?? `elicitation-${this.position + 1}`;
    const responses = this.ask({ [key]: { method: 'elicitation/create', params: { mode: 'form', message, requestedSchema } } });
    const response = responses[key] as unknown as ElicitResponse;
    if (!standard || response.action !== 'accept') return new ElicitResult(response);
    // The answer already passed the requestedSchema (else it was asked again); what JSON Schema cannot say is the schema's to refuse.
    const checked = await standard.validator.validate(response.content ?? {});
    if (!checked.ok) throw new InvalidParamsError(checked.message);
    return new ElicitResult(response, checked.value as object);
  }

  async elicitUrl(message: string, url: string, options: ElicitOptions = {}): Promise<ElicitResult> {
    const key = options.key ?? `elicitation-${this.position + 1}`;
    const responses = this.ask({ [key]: { method: 'elicitation/create', params: { mode: 'url', message, url } } });
    return new ElicitResult(responses[key] as never);
  }

  async requestInputs(requests: InputRequests): Promise<InputResponses> {
    return this.ask(requests);
  }

  /** Called by the call pipeline when the handler run has settled. @internal */
  close(): void {
    this.settled = true;
  }

  private ask(requests: InputRequests): InputResponses {
    if (this.settled) {
      throw new Error(
        'elicit() was called after the handler settled (from a detached promise or a callback); ' +
          'await every elicit() inside the handler itself',
      );
    }
    this.position++;
    return this.askInputs(requests);
  }
}

/** The context of a `tools/call`. */
export class ToolCallContext extends McpHandlerContext implements McpToolContext {
  get toolName(): string {
    return this.target;
  }

  async startTask(): Promise<void> {
    this.call.startTask?.();
  }
}

/** The context of a `prompts/get`. */
export class PromptGetContext extends McpHandlerContext implements McpPromptContext {
  get promptName(): string {
    return this.target;
  }
}

/** The context of a `resources/read`: `uri` is the URI read (for a template, the expanded one). */
export class ResourceReadContext extends McpHandlerContext implements McpResourceContext {
  get uri(): string {
    return this.target;
  }
}

/** The context of a `completion/complete`: request facts and progress; it cannot ask the user. */
export class CompletionContext extends McpHandlerContext {}

/** The context of a custom method (`McpCustomMethods`): request facts, progress and notifications; it cannot ask the user. */
export class CustomMethodContext extends McpHandlerContext {}
