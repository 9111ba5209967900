// The nest-mcp playground: a plain-DOM MCP client served beside the endpoint. It speaks 2026-07-28 (every
// call one self-contained POST) or, switched, 2025-11-25 (initialize, then calls in an Mcp-Session-Id
// session whose questions arrive as server-to-client requests on the call's stream).

import { appFrame, appFrameSource } from './app-host.js';

const PROTOCOL_VERSION = '2026-07-28';
const LEGACY_VERSION = '2025-11-25';
const APP_MIME = 'text/html;profile=mcp-app';
const TASKS = 'io.modelcontextprotocol/tasks';
const CAPABILITIES = {
  elicitation: { form: {} },
  extensions: { 'io.modelcontextprotocol/ui': { mimeTypes: [APP_MIME] }, [TASKS]: {} },
};
const CLIENT_INFO = { name: 'nest-mcp-playground', version: '1' };
/** The endpoint is the page's path without `/playground`. */
const ENDPOINT = new URL(location.pathname.replace(/\/playground\/?$/, '') || '/', location.origin).href;

const $ = (selector, root = document) => root.querySelector(selector);

/** Makes an element: `el('div', { class: 'x', onclick }, child, 'text', …)`. */
function el(tag, attributes = {}, ...children) {
  const node = document.createElement(tag);
  for (const [name, value] of Object.entries(attributes)) {
    if (value === undefined || value === null || value === false) continue;
    if (name.startsWith('on')) node.addEventListener(name.slice(2), value);
    else if (name in node && typeof value !== 'string') node[name] = value;
    else node.setAttribute(name, value === true ? '' : value);
  }
  for (const child of children.flat()) {
    if (child !== undefined && child !== null && child !== false) node.append(child instanceof Node ? child : String(child));
  }
  return node;
}

// ------------------------------------------------------------------ the wire

let nextId = 1;
/** `modern` (2026-07-28) or `legacy` (a 2025-11-25 session), as the era switch says. */
let era = 'modern';
/** The 2025 session's id, once `initialize` opened it. */
let sessionId;

/** Header values must be ASCII without surrounding spaces; anything else goes in the `=?base64?…?=` form. */
function headerValue(value) {
  const text = String(value);
  if (/^[\x20-\x7e]*$/.test(text) && text.trim() === text) return text;
  const bytes = new TextEncoder().encode(text);
  return `=?base64?${btoa(String.fromCharCode(...bytes))}?=`;
}

/** Reads an SSE body as it arrives and hands each `data:` message on. */
async function readSse(response, onMessage) {
  const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
  let buffer = '';
  for (;;) {
    const { value, done } = await reader.read();
    if (done) break;
    buffer += value;
    const events = buffer.split(/\r?\n\r?\n/);
    buffer = events.pop();
    for (const event of events) {
      const data = event.split(/\r?\n/).filter((line) => line.startsWith('data:')).map((line) => line.slice(5).replace(/^ /, '')).join('\n');
      if (data) onMessage(JSON.parse(data));
    }
  }
}

/** The value of `Mcp-Name` for a method (2026-07-28): the tool, prompt, resource or task it names. */
function nameOf(method, params) {
  if (method === 'resources/read') return params.uri;
  if (method === 'tools/call' || method === 'prompts/get') return params.name;
  return method.startsWith('tasks/') ? params.taskId : undefined;
}

/** The `_meta` envelope a 2026-07-28 request carries. */
function envelope(extra = {}) {
  return {
    'io.modelcontextprotocol/protocolVersion': PROTOCOL_VERSION,
    'io.modelcontextprotocol/clientCapabilities': CAPABILITIES,
    'io.modelcontextprotocol/clientInfo': CLIENT_INFO,
    ...extra,
  };
}

/** The headers of a request of `method`, in the era in use (without the token). */
function requestHeaders(method, params, inSession = era === 'legacy') {
  const headers = { 'Content-Type': 'application/json', Accept: 'application/json, text/event-stream' };
  if (inSession) {
    if (method !== 'initialize') Object.assign(headers, { 'MCP-Protocol-Version': LEGACY_VERSION }, sessionId ? { 'Mcp-Session-Id': sessionId } : {});
    return headers;
  }
  Object.assign(headers, { 'MCP-Protocol-Version': PROTOCOL_VERSION, 'Mcp-Method': method });
  const name = nameOf(method, params);
  if (name !== undefined) headers['Mcp-Name'] = headerValue(name);
  return headers;
}

/** The JSON-RPC request as the era sends it: 2026 with its `_meta` envelope, 2025 bare (a progress token only). */
function requestBody(id, method, params, { progressToken, inSession = era === 'legacy' } = {}) {
  const token = progressToken !== undefined ? { progressToken } : {};
  if (inSession) return { jsonrpc: '2.0', id, method, params: Object.keys(token).length > 0 ? { ...params, _meta: token } : params };
  return { jsonrpc: '2.0', id, method, params: { ...params, _meta: envelope(token) } };
}

const bearer = () => $('#token').value.trim();

/**
 * One JSON-RPC request. Resolves to the response message (`result` or `error`); notifications on the
 * stream go to `onNotification`, a server's requests (2025 sessions) to `onRequest`. Every exchange is logged.
 */
async function rpc(method, params = {}, { signal, progressToken, onNotification, onRequest, headers: extraHeaders = {}, id = nextId++ } = {}) {
  if (era === 'legacy' && !sessionId && method !== 'initialize') await openSession();
  const body = requestBody(id, method, params, { progressToken });
  const headers = { ...requestHeaders(method, params), ...(era === 'legacy' ? {} : extraHeaders) };
  if (bearer()) headers.Authorization = `Bearer ${bearer()}`;
  const log = logEntry(method, nameOf(method, params), body);
  let response;
  try {
    response = await fetch(ENDPOINT, { method: 'POST', headers, body: JSON.stringify(body), signal });
    log.status(response.status, response.headers.get('mcp-session-id'));
    let final;
    const take = (message) => {
      log.received(message);
      if (message.method !== undefined && message.id !== undefined) onRequest?.(message);
      else if (message.id === id && ('result' in message || 'error' in message)) final = message;
      else if (message.method) onNotification?.(message);
    };
    const type = (response.headers.get('content-type') ?? '').split(';')[0].trim();
    if (type === 'text/event-stream') await readSse(response, take);
    else {
      const text = await response.text();
      if (type === 'application/json' && text) take(JSON.parse(text));
      else if (text) log.received(text);
    }
    if (response.status === 401) showConnectionError('The server asks for a bearer token (HTTP 401): enter it above.');
    // A 2025 session the server no longer knows (restarted, expired): the next call opens a new one.
    if (response.status === 404 && era === 'legacy' && headers['Mcp-Session-Id']) sessionId = undefined;
    if (!final) throw new Error(`HTTP ${response.status}: no JSON-RPC response`);
    log.done(final.error ? `error ${final.error.code}` : final.result?.resultType ?? 'ok');
    final.httpStatus = response.status;
    if (method === 'initialize') final.sessionId = response.headers.get('mcp-session-id') ?? undefined;
    return final;
  } catch (error) {
    log.done(error.name === 'AbortError' ? 'cancelled' : 'failed');
    throw error;
  }
}

/** POSTs a notification or a response into the 2025 session (answered 202, no body), logged like a request. */
async function postInSession(message, label) {
  const headers = requestHeaders(label, {}, true);
  if (bearer()) headers.Authorization = `Bearer ${bearer()}`;
  const log = logEntry(label, undefined, message);
  const response = await fetch(ENDPOINT, { method: 'POST', headers, body: JSON.stringify(message) });
  log.status(response.status);
  await response.arrayBuffer();
  log.done(response.status === 202 ? 'accepted' : 'refused');
  if (response.status !== 202) throw new Error(`${label}: HTTP ${response.status}`);
}

/** Opens the 2025 session: `initialize` (its answer carries the Mcp-Session-Id), then `notifications/initialized`. */
async function openSession() {
  const reply = await rpc('initialize', { protocolVersion: LEGACY_VERSION, capabilities: { elicitation: { form: {} } }, clientInfo: CLIENT_INFO });
  if (reply.error) throw new Error(`initialize: ${reply.error.message}`);
  if (!reply.sessionId) throw new Error('initialize: the server answered without an Mcp-Session-Id');
  sessionId = reply.sessionId;
  await postInSession({ jsonrpc: '2.0', method: 'notifications/initialized' }, 'notifications/initialized');
  return reply.result;
}

/** Calls a list method, following `nextCursor` to the end. */
async function listAll(method, key) {
  const items = [];
  let cursor;
  do {
    const reply = await rpc(method, cursor ? { cursor } : {});
    if (reply.error) throw new Error(`${method}: ${reply.error.message}`);
    items.push(...(reply.result[key] ?? []));
    cursor = reply.result.nextCursor;
  } while (cursor);
  return items;
}

// ------------------------------------------------------------------ the log

function logEntry(method, name, sent) {
  const started = performance.now();
  const elapsed = () => `${Math.round(performance.now() - started)} ms`;
  const label = `${sent.id !== undefined ? `#${sent.id} ` : ''}${method}${name !== undefined ? ` ${name}` : ''}`;
  const summary = el('summary', {}, `${label} …`);
  const entry = el('details', { class: 'log-entry', 'data-era': era }, summary, el('div', { class: 'dir' }, `sent (${era === 'legacy' ? LEGACY_VERSION : PROTOCOL_VERSION})`), el('pre', {}, JSON.stringify(sent, null, 2)));
  $('#log-entries').prepend(entry);
  let status = '';
  return {
    status(code, session) {
      status = `HTTP ${code}`;
      if (session) entry.append(el('div', { class: 'dir' }, `Mcp-Session-Id: ${session}`));
    },
    received(message) {
      entry.append(el('div', { class: 'dir' }, `received at +${elapsed()}`), el('pre', {}, typeof message === 'string' ? message : JSON.stringify(message, null, 2)));
    },
    done(outcome) {
      summary.textContent = `${label} · ${[status, outcome].filter(Boolean).join(' · ')} · ${elapsed()}`;
    },
  };
}

// ------------------------------------------------------------------ forms from JSON schemas

const FORMAT_INPUT = { email: 'email', uri: 'url', date: 'date', 'date-time': 'datetime-local' };

/** The options of an enum property: `enum`, or titled `oneOf` / `anyOf` of `{ const, title }`. */
function enumOptions(schema) {
  if (!schema) return undefined;
  if (Array.isArray(schema.enum)) return schema.enum.map((value) => ({ value, title: String(value) }));
  const titled = schema.oneOf ?? schema.anyOf;
  if (Array.isArray(titled) && titled.every((option) => option && 'const' in option)) {
    return titled.map((option) => ({ value: option.const, title: option.title ?? String(option.const) }));
  }
  return undefined;
}

/** The type of a property, `["string","null"]` read as `string`. */
function typeOf(schema) {
  const type = Array.isArray(schema.type) ? schema.type.find((t) => t !== 'null') : schema.type;
  return type ?? (enumOptions(schema) ? 'string' : undefined);
}

let fieldCounter = 0;

/** One input for one property; `read()` gives its value, or `undefined` when left empty. */
function schemaField(name, schema, required) {
  const id = `field-${++fieldCounter}`;
  const label = schema.title ?? name;
  const hint = schema.description ? el('span', { class: 'hint' }, schema.description) : undefined;
  const type = typeOf(schema);
  const options = enumOptions(schema);
  const itemOptions = type === 'array' ? enumOptions(schema.items) : undefined;
  const labelEl = el('label', { for: id, class: required ? 'required' : undefined }, label);

  if (type === 'boolean') {
    const input = el('input', { id, name, type: 'checkbox', checked: schema.default === true });
    return { node: el('div', { class: 'field inline' }, input, labelEl, hint), read: () => input.checked };
  }
  if (itemOptions) {
    const boxes = itemOptions.map((option) => el('input', { type: 'checkbox', name, value: option.value, checked: (schema.default ?? []).includes(option.value) }));
    const node = el(
      'fieldset',
      { class: 'field', 'data-field': name },
      el('legend', { class: required ? 'required' : undefined }, label),
      hint,
      boxes.map((box, i) => el('label', { class: 'field inline' }, box, itemOptions[i].title)),
    );
    return {
      node,
      read: () => {
        const chosen = boxes.filter((box) => box.checked).map((box) => box.value);
        return chosen.length > 0 || required ? chosen : undefined;
      },
      check: () => {
        const count = boxes.filter((box) => box.checked).length;
        if (schema.minItems !== undefined && count < schema.minItems) return `${label}: pick at least ${schema.minItems}`;
        if (schema.maxItems !== undefined && count > schema.maxItems) return `${label}: pick at most ${schema.maxItems}`;
        return undefined;
      },
    };
  }
  if (options) {
    const select = el(
      'select',
      { id, name, required },
      el('option', { value: '' }, required ? '— choose —' : '—'),
      options.map((option) => el('option', { value: String(option.value), selected: option.value === schema.default }, option.title)),
    );
    return { node: el('div', { class: 'field' }, labelEl, hint, select), read: () => (select.value === '' ? undefined : options.find((o) => String(o.value) === select.value).value) };
  }
  if (type === 'number' || type === 'integer') {
    const input = el('input', { id, name, type: 'number', required, min: schema.minimum, max: schema.maximum, step: type === 'integer' ? '1' : 'any', value: schema.default });
    return { node: el('div', { class: 'field' }, labelEl, hint, input), read: () => (input.value === '' ? undefined : Number(input.value)) };
  }
  if (type === 'string') {
    const inputType = FORMAT_INPUT[schema.format] ?? 'text';
    const input = el('input', { id, name, type: inputType, required, minlength: schema.minLength, maxlength: schema.maxLength, pattern: schema.pattern, value: schema.default });
    const read = () => {
      if (input.value === '') return undefined;
      return inputType === 'datetime-local' ? new Date(input.value).toISOString() : input.value;
    };
    return { node: el('div', { class: 'field' }, labelEl, hint, input), read };
  }
  // Objects, arrays of anything and untyped properties: JSON typed by hand.
  const area = el('textarea', { id, name, required, placeholder: 'JSON' }, schema.default !== undefined ? JSON.stringify(schema.default, null, 2) : '');
  return {
    node: el('div', { class: 'field' }, labelEl, hint, area),
    read: () => (area.value.trim() === '' ? undefined : JSON.parse(area.value)),
    check: () => {
      if (area.value.trim() === '') return undefined;
      try {
        JSON.parse(area.value);
        return undefined;
      } catch {
        return `${label}: not valid JSON`;
      }
    },
  };
}

/** A form for an object schema. `values()` checks it (as the browser does) and returns the object, or throws. */
function schemaForm(schema, { submitLabel, extraButtons = [] } = {}) {
  const properties = schema?.properties ?? {};
  const required = new Set(schema?.required ?? []);
  const fields = Object.entries(properties).map(([name, property]) => ({ name, ...schemaField(name, property ?? {}, required.has(name)) }));
  const form = el('form', {}, fields.map((field) => field.node));
  if (fields.length === 0) form.append(el('p', { class: 'muted' }, 'No arguments.'));
  const submit = el('button', { type: 'submit', class: 'primary' }, submitLabel);
  form.append(el('div', { class: 'actions' }, submit, ...extraButtons));
  return {
    form,
    submit,
    values() {
      if (!form.reportValidity()) throw new Error('Please complete the form.');
      const problem = fields.map((field) => field.check?.()).find(Boolean);
      if (problem) throw new Error(problem);
      return this.peek();
    },
    /** The values as they stand, unchecked (a field whose JSON does not parse is left out). */
    peek() {
      const out = {};
      for (const field of fields) {
        try {
          const value = field.read();
          if (value !== undefined) out[field.name] = value;
        } catch {
          // Unfinished JSON in an object field: nothing to take from it yet.
        }
      }
      return out;
    },
  };
}

// ------------------------------------------------------------------ rendering results

/** A collapsible tree of a JSON value. */
function jsonTree(value, key, depth = 0) {
  if (value !== null && typeof value === 'object') {
    const entries = Array.isArray(value) ? value.map((item, i) => [i, item]) : Object.entries(value);
    const label = Array.isArray(value) ? `[${entries.length}]` : `{${entries.length}}`;
    return el(
      'details',
      { open: depth < 3 },
      el('summary', {}, key !== undefined ? el('span', { class: 'key' }, `${key}: `) : '', label),
      entries.map(([k, v]) => jsonTree(v, k, depth + 1)),
    );
  }
  return el('div', { class: 'leaf' }, key !== undefined ? el('span', { class: 'key' }, `${key}: `) : '', el('span', { class: typeof value }, JSON.stringify(value)));
}

const dataUrl = (mimeType, base64) => `data:${mimeType};base64,${base64}`;

/** One content block of a tool result or prompt message. */
function contentBlock(block) {
  switch (block?.type) {
    case 'text':
      return el('pre', { class: 'block text' }, block.text);
    case 'image':
      return el('div', { class: 'block' }, el('img', { src: dataUrl(block.mimeType, block.data), alt: 'image content' }));
    case 'audio':
      return el('div', { class: 'block' }, el('audio', { controls: true, src: dataUrl(block.mimeType, block.data) }));
    case 'resource_link':
      return el(
        'div',
        { class: 'block resource-link' },
        el('span', { class: 'block-label' }, 'resource link'),
        el('code', {}, block.uri),
        block.title ?? block.name,
        block.mimeType ? el('span', { class: 'muted' }, block.mimeType) : undefined,
        el('button', { type: 'button', class: 'secondary', onclick: () => showResource({ uri: block.uri, name: block.name }) }, 'Read'),
      );
    case 'resource':
      return el('div', { class: 'block' }, el('span', { class: 'block-label' }, `embedded resource ${block.resource?.uri ?? ''}`), resourceContents(block.resource));
    default:
      return el('div', { class: 'block' }, el('span', { class: 'block-label' }, `${block?.type ?? 'unknown'} block`), jsonTree(block));
  }
}

/** One item of `resources/read` contents, shown by its MIME type. */
function resourceContents(item, toolCall) {
  const mime = (item?.mimeType ?? '').toLowerCase();
  const essence = mime.split(';')[0].trim();
  const label = el('div', { class: 'block-label' }, [item?.uri, item?.mimeType].filter(Boolean).join(' · '));
  if (mime.replace(/\s/g, '') === APP_MIME || (item?.uri ?? '').startsWith('ui://')) {
    const html = item.text ?? (item.blob !== undefined ? new TextDecoder().decode(Uint8Array.from(atob(item.blob), (c) => c.charCodeAt(0))) : '');
    const frame = appFrame(html, { ...appFrameSource(item, known.resources.get(item.uri)), hostInfo: CLIENT_INFO, call: appCall, tools: (name) => known.tools.get(name), toolCall });
    return el('div', { class: 'block app-block' }, label, frame);
  }
  if (item?.blob !== undefined) {
    if (essence.startsWith('image/')) return el('div', { class: 'block' }, label, el('img', { src: dataUrl(essence, item.blob), alt: item.uri }));
    if (essence.startsWith('audio/')) return el('div', { class: 'block' }, label, el('audio', { controls: true, src: dataUrl(essence, item.blob) }));
    return el('div', { class: 'block' }, label, el('a', { href: dataUrl(essence || 'application/octet-stream', item.blob), download: item.uri.split('/').pop() || 'resource' }, `download (${Math.round((item.blob.length * 3) / 4)} bytes)`));
  }
  if (essence === 'application/json' || essence.endsWith('+json')) {
    try {
      return el('div', { class: 'block' }, label, el('div', { class: 'tree' }, jsonTree(JSON.parse(item.text))));
    } catch {
      // Not JSON after all: shown as text below.
    }
  }
  return el('div', { class: 'block' }, label, el('pre', { class: 'text' }, item?.text ?? ''));
}

function toolResult(result, call) {
  const box = el('div', { class: `result${result.isError ? ' is-error' : ''}`, 'data-result': result.isError ? 'error' : 'ok' });
  if (result.isError) box.append(el('div', { class: 'error-label', role: 'alert' }, 'Tool error'));
  const resourceUri = call?.tool._meta?.ui?.resourceUri ?? call?.tool._meta?.['ui/resourceUri'];
  if (typeof resourceUri === 'string') box.append(toolApp(resourceUri, { ...call, result }));
  for (const block of result.content ?? []) box.append(contentBlock(block));
  if (result.structuredContent !== undefined) box.append(el('h3', {}, 'Structured content'), el('div', { class: 'tree structured' }, jsonTree(result.structuredContent)));
  return box;
}

/** The app a tool links to (`_meta.ui.resourceUri`): a place in the result, filled once the app is read. */
function toolApp(resourceUri, toolCall) {
  const slot = el('div', { class: 'app-slot' }, el('p', { class: 'muted' }, `loading the app ${resourceUri}…`));
  (async () => {
    const reply = await rpc('resources/read', { uri: resourceUri });
    if (reply.error) throw new Error(`${reply.error.code}: ${reply.error.message}`);
    const item = (reply.result.contents ?? []).find((content) => content.uri === resourceUri) ?? reply.result.contents?.[0];
    slot.replaceChildren(resourceContents(item, toolCall));
  })().catch((error) => slot.replaceChildren(errorBox(`The tool's app ${resourceUri} could not be read: ${error.message}`)));
  return slot;
}

/** A request an app sends through the playground (`tools/call`, `resources/read`), to the server. */
function appCall(method, params) {
  const tool = method === 'tools/call' ? known.tools.get(params.name) : undefined;
  return rpc(method, params, { headers: mirroredHeaders(tool?.inputSchema, params.arguments) });
}

function promptResult(result) {
  const box = el('div', { class: 'result', 'data-result': 'ok' });
  if (result.description) box.append(el('p', { class: 'muted' }, result.description));
  for (const message of result.messages ?? []) box.append(el('div', { class: 'block' }, el('div', { class: 'message-role' }, message.role), contentBlock(message.content)));
  return box;
}

function readResult(result) {
  return el('div', { class: 'result', 'data-result': 'ok' }, (result.contents ?? []).map((item) => resourceContents(item)));
}

function errorBox(text) {
  return el('div', { class: 'result error', 'data-result': 'rpc-error', role: 'alert' }, text);
}

// ------------------------------------------------------------------ a run: progress, cancel, input rounds

let progressCounter = 0;
const TERMINAL = new Set(['completed', 'failed', 'cancelled']);

/** The JSON-RPC error as a client gets it: HTTP status, code, message, and its data as a tree. */
function rpcError(reply) {
  const { code, message, data } = reply.error;
  return el('div', { class: 'result error', 'data-result': 'rpc-error', 'data-code': code, role: 'alert' },
    el('div', { class: 'error-label' }, `JSON-RPC error ${code}${reply.httpStatus ? ` (HTTP ${reply.httpStatus})` : ''}`),
    el('div', { class: 'error-message' }, message),
    data !== undefined ? el('div', { class: 'tree' }, jsonTree(data, 'data')) : undefined,
  );
}

/**
 * Runs one request as a person watches it: a progress bar fed by `notifications/progress`, a cancel
 * button, the questions answered through forms (`input_required` rounds in 2026, server-to-client
 * requests on the stream in a 2025 session), and a task followed by polling until it ends. Resolves to
 * what was asked and answered and the final result, for "copy as test".
 */
async function run(container, method, params, render, headers = {}) {
  const controller = new AbortController();
  const progressToken = `playground-${++progressCounter}`;
  const bar = el('progress', { max: 1, value: 0 });
  const count = el('span', { class: 'progress-count' }, '');
  const message = el('span', { class: 'progress-message' }, '');
  const progress = el('div', { class: 'progress', hidden: true }, bar, count, message);
  const status = el('div', { class: 'status' }, 'running…');
  let onCancel = () => controller.abort();
  const cancel = el('button', { type: 'button', class: 'secondary cancel', onclick: () => onCancel() }, 'Cancel call');
  const rounds = el('div', { class: 'rounds' });
  const box = el('div', { class: 'run', 'data-state': 'running', 'data-era': era }, el('div', { class: 'actions' }, status, cancel), progress, rounds);
  container.replaceChildren(box);
  const outcome = { answers: [] };
  const showProgress = (done, total, text) => {
    progress.hidden = false;
    if (typeof total === 'number') {
      bar.max = total;
      bar.value = done;
      count.textContent = `${done}/${total}`;
    } else {
      bar.removeAttribute('value');
      count.textContent = String(done);
    }
    if (text) message.textContent = text;
  };
  const onNotification = (note) => {
    if (note.method === 'notifications/progress' && note.params?.progressToken === progressToken) showProgress(note.params.progress, note.params.total, note.params.message);
  };
  const finish = (state, text, node) => {
    box.dataset.state = state;
    status.textContent = text;
    cancel.remove();
    if (node) box.append(node);
    return outcome;
  };
  const ask = async (request, signal = controller.signal) => {
    const response = await answer(rounds, request, signal);
    outcome.answers.push(response);
    return response;
  };
  const id = nextId++;
  try {
    if (era === 'legacy') {
      // Closing a 2025 stream does not cancel the call: the client says so with notifications/cancelled.
      onCancel = () => {
        void postInSession({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: id, reason: 'cancelled in the playground' } }, 'notifications/cancelled').catch(() => undefined);
        controller.abort();
      };
      const onRequest = (request) => {
        const reply = (answered) => postInSession({ jsonrpc: '2.0', id: request.id, ...answered }, `response to ${request.method}`);
        // Only form elicitation is declared in the session's capabilities; a ping is answered, the rest refused.
        if (request.method === 'ping') return void reply({ result: {} }).catch(() => undefined);
        if (request.method !== 'elicitation/create') return void reply({ error: { code: -32601, message: `${request.method} is not supported by the playground` } }).catch(() => undefined);
        status.textContent = `the server asks (${request.method}) on the stream`;
        void ask(request)
          .then((response) => reply({ result: response }))
          .catch(() => undefined);
      };
      const reply = await rpc(method, params, { id, signal: controller.signal, progressToken, onNotification, onRequest });
      outcome.result = reply.result;
      return complete(reply);
    }
    let extra = {};
    for (let round = 1; ; round++) {
      const reply = await rpc(method, { ...params, ...extra }, { id: round === 1 ? id : nextId++, signal: controller.signal, progressToken, onNotification, headers });
      if (reply.error || reply.result.resultType !== 'input_required') {
        if (reply.result?.resultType === 'task') return await followTask(reply.result);
        outcome.result = reply.result;
        return complete(reply, round);
      }
      status.textContent = `round ${round}: the server asks for input`;
      const inputResponses = {};
      for (const [key, request] of Object.entries(reply.result.inputRequests ?? {})) inputResponses[key] = await ask(request);
      extra = { inputResponses, ...(reply.result.requestState !== undefined ? { requestState: reply.result.requestState } : {}) };
      status.textContent = `round ${round + 1}: retrying with the answers`;
    }
  } catch (error) {
    if (controller.signal.aborted) return finish('cancelled', 'cancelled');
    return finish('error', 'failed', errorBox(error.message));
  }

  function complete(reply, round = 1) {
    if (reply.error) return finish('error', `error ${reply.error.code}`, rpcError(reply));
    const result = reply.result;
    return finish(result.isError ? 'tool-error' : 'done', result.isError ? 'the tool reported an error' : `done${round > 1 ? ` after ${round} rounds` : ''}`, render(result));
  }

  /** Polls a task (tasks/get, at its pollIntervalMs) until it ends; answers its input rounds with tasks/update. */
  async function followTask(created) {
    const { taskId } = created;
    let task = created;
    let cancelled = false;
    let wake = () => undefined;
    const inputs = new AbortController();
    box.dataset.task = taskId;
    onCancel = async () => {
      cancelled = true;
      cancel.disabled = true;
      inputs.abort();
      await rpc('tasks/cancel', { taskId }).catch(() => undefined);
      wake();
    };
    const answered = new Set();
    for (;;) {
      box.dataset.taskStatus = task.status;
      status.textContent = `task ${task.status}${task.statusMessage ? `: ${task.statusMessage}` : ''}`;
      const counted = /^(\d+)\/(\d+)(?::\s*(.*))?$/.exec(task.statusMessage ?? '');
      if (counted) showProgress(Number(counted[1]), Number(counted[2]), counted[3]);
      if (task.status === 'completed') {
        // A completed task keeps its last step as its statusMessage (shown above), the one a poll seldom catches before it completes.
        outcome.result = task.result;
        return finish(task.result.isError ? 'tool-error' : 'done', `task completed`, render(task.result));
      }
      if (task.status === 'failed') return finish('error', 'task failed', rpcError({ error: task.error ?? { code: -32603, message: task.statusMessage ?? 'failed' } }));
      if (task.status === 'cancelled') return finish('cancelled', 'task cancelled');
      const pending = Object.entries(task.status === 'input_required' && !cancelled ? task.inputRequests ?? {} : {}).filter(([key]) => !answered.has(key));
      if (pending.length > 0) {
        const inputResponses = {};
        try {
          for (const [key, request] of pending) inputResponses[key] = await ask(request, inputs.signal);
        } catch {
          // Cancelled while a question was open: tasks/cancel is on its way; the poll below shows the end.
        }
        if (!cancelled) {
          for (const key of Object.keys(inputResponses)) answered.add(key);
          await rpc('tasks/update', { taskId, inputResponses });
        }
      } else {
        await new Promise((resolve) => {
          const timer = setTimeout(resolve, task.pollIntervalMs ?? created.pollIntervalMs ?? 1000);
          wake = () => {
            clearTimeout(timer);
            resolve();
          };
        });
      }
      const reply = await rpc('tasks/get', { taskId });
      if (reply.error) return finish('error', `error ${reply.error.code}`, rpcError(reply));
      task = { pollIntervalMs: created.pollIntervalMs, ...reply.result };
    }
  }
}

/** A tool's `x-mcp-header` arguments, mirrored into `Mcp-Param-*` headers (SEP-2243). */
function mirroredHeaders(inputSchema, args) {
  const headers = {};
  for (const [name, property] of Object.entries(inputSchema?.properties ?? {})) {
    const header = property?.['x-mcp-header'];
    const value = args?.[name];
    if (header && value !== undefined && value !== null) headers[`Mcp-Param-${header}`] = headerValue(value);
  }
  return headers;
}

/** Asks the person one input request; resolves to its response. */
function answer(container, request, signal) {
  return new Promise((resolve, reject) => {
    if (request.method !== 'elicitation/create' || (request.params?.mode ?? 'form') !== 'form') {
      // Only form elicitation is declared in the capabilities; anything else is declined.
      resolve({ action: 'decline' });
      return;
    }
    const done = (response) => {
      panel.remove();
      signal.removeEventListener('abort', onAbort);
      container.append(el('div', { class: 'status answered' }, `answered “${request.params.message}”: ${response.action}`));
      resolve(response);
    };
    const decline = el('button', { type: 'button', class: 'secondary', 'data-action': 'decline', onclick: () => done({ action: 'decline' }) }, 'Decline');
    const cancel = el('button', { type: 'button', class: 'secondary', 'data-action': 'cancel', onclick: () => done({ action: 'cancel' }) }, 'Cancel');
    const form = schemaForm(request.params.requestedSchema, { submitLabel: 'Accept', extraButtons: [decline, cancel] });
    form.submit.dataset.action = 'accept';
    const problem = el('p', { class: 'error', hidden: true });
    form.form.addEventListener('submit', (event) => {
      event.preventDefault();
      try {
        done({ action: 'accept', content: form.values() });
      } catch (error) {
        problem.textContent = error.message;
        problem.hidden = false;
      }
    });
    const panel = el('div', { class: 'elicitation', role: 'dialog', 'aria-label': request.params.message }, el('p', { class: 'message' }, request.params.message), form.form, problem);
    const onAbort = () => {
      panel.remove();
      reject(new DOMException('cancelled', 'AbortError'));
    };
    signal.addEventListener('abort', onAbort);
    container.append(panel);
    panel.querySelector('input, select, textarea, button')?.focus();
  });
}

// ------------------------------------------------------------------ completions

/** Suggestions as the person types, from `completion/complete`, in a datalist under the input. */
function withCompletions(input, ref, argumentName, otherValues) {
  const list = el('datalist', { id: `${input.id}-completions` });
  input.setAttribute('list', list.id);
  input.setAttribute('autocomplete', 'off');
  let timer;
  let latest = 0;
  const ask = async () => {
    const asked = ++latest;
    try {
      const context = Object.fromEntries(Object.entries(otherValues()).filter(([name, value]) => name !== argumentName && value !== ''));
      const reply = await rpc('completion/complete', { ref, argument: { name: argumentName, value: input.value }, context: { arguments: context } });
      if (asked !== latest || reply.error) return;
      list.replaceChildren(...(reply.result.completion?.values ?? []).map((value) => el('option', { value })));
      input.dataset.completions = (reply.result.completion?.values ?? []).join(',');
    } catch {
      // A failed suggestion is no reason to bother the person.
    }
  };
  input.addEventListener('input', () => {
    clearTimeout(timer);
    timer = setTimeout(ask, 150);
  });
  input.addEventListener('focus', ask, { once: true });
  return list;
}

/** A form of string arguments (prompts, template variables), each with completions. */
function argumentsForm(args, ref, submitLabel) {
  const inputs = {};
  const values = () => Object.fromEntries(Object.entries(inputs).map(([name, input]) => [name, input.value]));
  const fields = args.map((arg) => {
    const id = `field-${++fieldCounter}`;
    const input = el('input', { id, name: arg.name, required: arg.required });
    inputs[arg.name] = input;
    return el(
      'div',
      { class: 'field' },
      el('label', { for: id, class: arg.required ? 'required' : undefined }, arg.title ?? arg.name),
      arg.description ? el('span', { class: 'hint' }, arg.description) : undefined,
      input,
      withCompletions(input, ref, arg.name, values),
    );
  });
  const submit = el('button', { type: 'submit', class: 'primary' }, submitLabel);
  const form = el('form', {}, fields, args.length === 0 ? el('p', { class: 'muted' }, 'No arguments.') : undefined, el('div', { class: 'actions' }, submit));
  return { form, values };
}

// ------------------------------------------------------------------ the detail panel

function detailHeader(kind, entry, extra) {
  return el('div', { class: 'detail-header' },
    el('div', { class: 'block-label' }, kind),
    el('h2', {}, entry.title ?? entry.name, entry.title && entry.title !== entry.name ? el('span', { class: 'muted' }, ` ${entry.name}`) : ''),
    entry.description ? el('p', {}, entry.description) : undefined,
    extra,
  );
}

function showTool(tool) {
  const output = el('div', { class: 'output' });
  const form = schemaForm(tool.inputSchema, { submitLabel: 'Call' });
  const problem = el('p', { class: 'error', hidden: true });
  const fail = (text) => {
    problem.textContent = text;
    problem.hidden = false;
  };
  /** The last run of this tool: its arguments, the answers given and the result, for "copy as test". */
  let last;
  const call = (args) => {
    problem.hidden = true;
    const calledIn = era;
    void run(output, 'tools/call', { name: tool.name, arguments: args }, (result) => toolResult(result, { tool, arguments: args }), mirroredHeaders(tool.inputSchema, args)).then((outcome) => {
      last = { args, era: calledIn, ...outcome };
    });
  };
  form.form.addEventListener('submit', (event) => {
    event.preventDefault();
    try {
      call(form.values());
    } catch (error) {
      fail(error.message);
    }
  });
  // The raw arguments, sent as typed: the server's own validation answers, as any client would see it.
  const raw = el('textarea', { class: 'raw-args', name: 'raw-arguments', spellcheck: 'false', 'aria-label': 'arguments as JSON' });
  const rawForm = el('form', { class: 'raw', hidden: true }, raw, el('div', { class: 'actions' }, el('button', { type: 'submit', class: 'primary' }, 'Call'), el('span', { class: 'hint muted' }, 'sent as is: no checks in the page')));
  rawForm.addEventListener('submit', (event) => {
    event.preventDefault();
    try {
      call(JSON.parse(raw.value));
    } catch (error) {
      fail(`not JSON: ${error.message}`);
    }
  });
  const mode = (json) => {
    if (json && rawForm.hidden) raw.value = JSON.stringify(form.peek(), null, 2);
    rawForm.hidden = !json;
    form.form.hidden = json;
    for (const button of modes.children) button.setAttribute('aria-pressed', String((button.dataset.mode === 'json') === json));
  };
  const modes = el('div', { class: 'modes', role: 'group', 'aria-label': 'arguments as' },
    el('button', { type: 'button', class: 'secondary', 'data-mode': 'form', 'aria-pressed': 'true', onclick: () => mode(false) }, 'Form'),
    el('button', { type: 'button', class: 'secondary', 'data-mode': 'json', 'aria-pressed': 'false', onclick: () => mode(true) }, 'Raw JSON'),
  );
  /** The arguments of the call as it stands in the form or the raw editor. */
  const current = () => {
    if (rawForm.hidden) return form.peek();
    try {
      return JSON.parse(raw.value);
    } catch {
      return raw.value;
    }
  };
  const snippet = el('pre', { class: 'snippet', hidden: true });
  const copy = (kind) => {
    const args = current();
    const matches = last && JSON.stringify(last.args) === JSON.stringify(args) ? last : undefined;
    snippet.textContent = SNIPPETS[kind]({ tool, args, last: matches });
    snippet.dataset.kind = kind;
    snippet.hidden = false;
    navigator.clipboard?.writeText(snippet.textContent).catch(() => undefined);
  };
  const copies = el('div', { class: 'copy actions' }, el('span', { class: 'muted' }, 'Copy as'),
    Object.entries(SNIPPET_LABELS).map(([kind, label]) => el('button', { type: 'button', class: 'link', 'data-copy': kind, onclick: () => copy(kind) }, label)),
  );
  const annotations = el('details', {}, el('summary', {}, 'annotations and schemas'), el('div', { class: 'tree' }, jsonTree({ annotations: tool.annotations, inputSchema: tool.inputSchema, outputSchema: tool.outputSchema })));
  $('#detail').replaceChildren(detailHeader('tool', tool, annotations), modes, form.form, rawForm, problem, copies, snippet, output);
  $('#detail').dataset.showing = `tool:${tool.name}`;
}

// ------------------------------------------------------------------ copy as curl, client code, test

const shellQuote = (text) => `'${String(text).replace(/'/g, `'\\''`)}'`;
const json = (value) => JSON.stringify(value);

/** One curl command: `-H` for each header, the token from $MCP_TOKEN rather than the clipboard. */
function curlCommand(url, headers, body, { stream = true } = {}) {
  const lines = [`curl -sS${stream ? ' -N' : ''} ${url}`, ...Object.entries(headers).map(([name, value]) => `-H ${shellQuote(`${name}: ${value}`)}`)];
  if (bearer()) lines.push('-H "Authorization: Bearer $MCP_TOKEN"');
  lines.push(`--data-raw ${shellQuote(json(body))}`);
  return lines.join(' \\\n  ');
}

const SNIPPET_LABELS = { curl: 'curl (2026-07-28)', 'curl-2025': 'curl (2025-11-25 session)', client: 'official client code', test: 'nest-mcp/testing test' };

const SNIPPETS = {
  curl({ tool, args }) {
    const params = { name: tool.name, arguments: args };
    const headers = { ...requestHeaders('tools/call', params, false), ...mirroredHeaders(tool.inputSchema, args) };
    return curlCommand(shellQuote(ENDPOINT), headers, requestBody(1, 'tools/call', params, { inSession: false }));
  },
  'curl-2025'({ tool, args }) {
    const base = { 'Content-Type': 'application/json', Accept: 'application/json, text/event-stream' };
    const inSession = { ...base, 'MCP-Protocol-Version': LEGACY_VERSION };
    const session = (command) => command.replace(/ \\\n {2}--data-raw/, ' \\\n  -H "Mcp-Session-Id: $SESSION" \\\n  --data-raw');
    const initialize = { jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: LEGACY_VERSION, capabilities: {}, clientInfo: { name: 'curl', version: '1' } } };
    return [
      `URL=${shellQuote(ENDPOINT)}`,
      '# initialize: the session id comes back in the Mcp-Session-Id header',
      `SESSION=$(${curlCommand('"$URL"', base, initialize, { stream: false }).replace('curl -sS', 'curl -sS -o /dev/null -D -')} | tr -d '\\r' | sed -n 's/^mcp-session-id: *//Ip')`,
      session(curlCommand('"$URL"', inSession, { jsonrpc: '2.0', method: 'notifications/initialized' }, { stream: false })),
      session(curlCommand('"$URL"', inSession, { jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: tool.name, arguments: args } })),
    ].join('\n');
  },
  client({ tool, args }) {
    const transport = bearer() ? `new URL(${json(ENDPOINT)}), {\n  requestInit: { headers: { Authorization: \`Bearer \${process.env.MCP_TOKEN}\` } },\n}` : `new URL(${json(ENDPOINT)})`;
    // Client 2.x speaks 2025 unless told otherwise: the era is always said, as the page's switch has it.
    const [comment, mode] = era === 'legacy'
      ? [`// ${LEGACY_VERSION}: initialize, then the call in the Mcp-Session-Id session it opens.`, "'legacy'"]
      : [`// ${PROTOCOL_VERSION}, pinned: each request self-contained, no fallback to a 2025 session.`, `{ pin: '${PROTOCOL_VERSION}' }`];
    return [
      "import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';",
      '',
      comment,
      `const client = new Client(\n  { name: 'my-client', version: '1.0.0' },\n  { versionNegotiation: { mode: ${mode} } },\n);`,
      `await client.connect(new StreamableHTTPClientTransport(${transport}));`,
      `const result = await client.callTool({ name: ${json(tool.name)}, arguments: ${json(args)} });`,
      'console.log(JSON.stringify(result, null, 2));',
      'await client.close();',
    ].join('\n');
  },
  test({ tool, args, last }) {
    const legacy = (last?.era ?? era) === 'legacy';
    const options = last?.answers.length ? `, {\n        answer: ${json(last.answers)},\n      }` : '';
    const expected = last?.result
      ? last.result.structuredContent !== undefined
        ? [`      expect(result.structuredContent).toEqual(${json(last.result.structuredContent)});`]
        : [`      expect(result.content).toEqual(${json(last.result.content)});`]
      : [];
    return [
      "import { describe, expect, it } from '@jest/globals';",
      "import { McpTest } from 'nest-mcp/testing';",
      "import { AppModule } from './app.module.js';",
      '',
      `describe(${json(`the ${tool.name} tool`)}, () => {`,
      "  it('answers as it did in the playground', async () => {",
      `    const client = await McpTest.createClient(AppModule${legacy ? ", { era: 'legacy' }" : ''});`,
      '    try {',
      `      const result = await client.callTool(${json(tool.name)}, ${json(args)}${options});`,
      `      expect(result.isError ?? false).toBe(${Boolean(last?.result?.isError)});`,
      ...expected,
      '    } finally {',
      '      await client.close();',
      '    }',
      '  });',
      '});',
    ].join('\n');
  },
};

function showPrompt(prompt) {
  const output = el('div', { class: 'output' });
  const { form, values } = argumentsForm(prompt.arguments ?? [], { type: 'ref/prompt', name: prompt.name }, 'Get prompt');
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    if (!form.reportValidity()) return;
    const args = Object.fromEntries(Object.entries(values()).filter(([, value]) => value !== ''));
    void run(output, 'prompts/get', { name: prompt.name, arguments: args }, promptResult);
  });
  $('#detail').replaceChildren(detailHeader('prompt', prompt), form, output);
  $('#detail').dataset.showing = `prompt:${prompt.name}`;
}

function showResource(resource) {
  const output = el('div', { class: 'output' });
  const read = el('button', { type: 'button', class: 'primary', onclick: () => run(output, 'resources/read', { uri: resource.uri }, readResult) }, 'Read');
  $('#detail').replaceChildren(detailHeader('resource', resource, el('p', {}, el('code', {}, resource.uri), resource.mimeType ? el('span', { class: 'muted' }, ` ${resource.mimeType}`) : '')), el('div', { class: 'actions' }, read), output);
  $('#detail').dataset.showing = `resource:${resource.uri}`;
  read.click();
}

/** An RFC 6570 expression: its operator and its comma-separated variables. */
const TEMPLATE_EXPRESSION = /\{([+#./;?&]?)([^}]+)\}/g;
/** A variable's name, without its explode (`*`) or prefix (`:3`) modifier. */
const variableName = (spec) => spec.replace(/[*]|:\d+$/g, '');

/** The variable names of an RFC 6570 template. */
function templateVariables(template) {
  return [...template.matchAll(TEMPLATE_EXPRESSION)].flatMap(([, , names]) => names.split(',').map(variableName));
}

/** Expands a template (simple and reserved expansion; the other operators joined as RFC 6570 does). */
function expandTemplate(template, values) {
  return template.replace(TEMPLATE_EXPRESSION, (_, operator, names) => {
    const parts = names.split(',').map(variableName).filter((name) => values[name] !== undefined && values[name] !== '');
    const encode = (value) => (operator === '+' || operator === '#' ? encodeURI(value) : encodeURIComponent(value));
    const joined = {
      '': [',', ''], '+': [',', ''], '#': [',', '#'], '.': ['.', '.'], '/': ['/', '/'], ';': [';', ';'], '?': ['&', '?'], '&': ['&', '&'],
    }[operator];
    const named = operator === ';' || operator === '?' || operator === '&';
    const items = parts.map((name) => (named ? `${name}=${encode(values[name])}` : encode(values[name])));
    return items.length === 0 ? '' : joined[1] + items.join(joined[0]);
  });
}

function showTemplate(template) {
  const output = el('div', { class: 'output' });
  const variables = templateVariables(template.uriTemplate).map((name) => ({ name, required: true }));
  const { form, values } = argumentsForm(variables, { type: 'ref/resource', uri: template.uriTemplate }, 'Read');
  const uri = el('code', { class: 'expanded' }, template.uriTemplate);
  form.addEventListener('input', () => (uri.textContent = expandTemplate(template.uriTemplate, values())));
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    if (!form.reportValidity()) return;
    void run(output, 'resources/read', { uri: expandTemplate(template.uriTemplate, values()) }, readResult);
  });
  $('#detail').replaceChildren(detailHeader('resource template', template, el('p', {}, el('code', {}, template.uriTemplate))), form, el('p', {}, 'URI: ', uri), output);
  $('#detail').dataset.showing = `template:${template.uriTemplate}`;
}

// ------------------------------------------------------------------ lists and start-up

const LISTS = {
  tools: { method: 'tools/list', key: 'tools', capability: 'tools', show: showTool, label: (t) => t.name },
  prompts: { method: 'prompts/list', key: 'prompts', capability: 'prompts', show: showPrompt, label: (p) => p.name },
  resources: { method: 'resources/list', key: 'resources', capability: 'resources', show: showResource, label: (r) => r.name ?? r.uri },
  templates: { method: 'resources/templates/list', key: 'resourceTemplates', capability: 'resources', show: showTemplate, label: (t) => t.name ?? t.uriTemplate },
};

/** The listed tools by name and resources by URI, for the apps the page hosts. */
const known = { tools: new Map(), resources: new Map() };

function fillList(kind, items) {
  const { show, label } = LISTS[kind];
  if (kind === 'tools') known.tools = new Map(items.map((tool) => [tool.name, tool]));
  if (kind === 'resources') known.resources = new Map(items.map((resource) => [resource.uri, resource]));
  $(`#count-${kind}`).textContent = String(items.length);
  $(`#list-${kind}`).replaceChildren(
    ...items.map((item) => {
      const button = el(
        'button',
        { type: 'button', 'data-name': label(item) },
        el('span', { class: 'name' }, label(item)),
        item.description ? el('span', { class: 'desc', title: item.description }, item.description) : undefined,
      );
      button.addEventListener('click', () => {
        for (const selected of document.querySelectorAll('.entries .selected')) selected.classList.remove('selected');
        button.classList.add('selected');
        show(item);
      });
      return el('li', {}, button);
    }),
  );
  if (items.length === 0) $(`#list-${kind}`).replaceChildren(el('li', { class: 'muted' }, 'none'));
}

function showConnectionError(text) {
  const box = $('#connection-error');
  box.textContent = text;
  box.hidden = !text;
}

/** What the server says of itself: `server/discover` (2026), or the `initialize` of a new 2025 session. */
async function discover() {
  if (era === 'legacy') return openSession();
  const reply = await rpc('server/discover');
  if (reply.error) throw new Error(`server/discover: ${reply.error.message}`);
  return reply.result;
}

async function connect() {
  showConnectionError('');
  delete document.body.dataset.ready;
  $('#endpoint').textContent = ENDPOINT;
  try {
    const found = await discover();
    const { capabilities = {}, instructions } = found;
    const serverInfo = found._meta?.['io.modelcontextprotocol/serverInfo'] ?? found.serverInfo ?? {};
    $('#server-name').textContent = serverInfo.title ?? serverInfo.name ?? 'MCP server';
    $('#server-version').textContent = [serverInfo.name !== serverInfo.title ? serverInfo.name : undefined, serverInfo.version].filter(Boolean).join(' ');
    document.title = `${$('#server-name').textContent} · MCP playground`;
    $('#instructions').textContent = instructions ?? '';
    $('#instructions').hidden = !instructions;
    await Promise.all(
      Object.entries(LISTS).map(async ([kind, { method, key, capability }]) => {
        fillList(kind, capabilities[capability] ? await listAll(method, key) : []);
      }),
    );
    filterList();
    document.body.dataset.ready = 'true';
  } catch (error) {
    if ($('#connection-error').hidden) showConnectionError(`Cannot reach ${ENDPOINT}: ${error.message}`);
  }
}

const placeholder = () => el('p', { class: 'muted' }, 'Pick a tool, prompt, resource or template on the left.');

/** Shows only the entries of the open list whose name or description holds the search text. */
function filterList() {
  const words = $('#search').value.trim().toLowerCase();
  for (const item of document.querySelectorAll('.entries li')) item.hidden = words !== '' && !item.textContent.toLowerCase().includes(words);
}

for (const tab of document.querySelectorAll('[role="tab"]')) {
  tab.addEventListener('click', () => {
    if (tab.getAttribute('aria-selected') === 'true') return;
    for (const other of document.querySelectorAll('[role="tab"]')) other.setAttribute('aria-selected', String(other === tab));
    for (const list of document.querySelectorAll('.entries')) list.hidden = list.dataset.list !== tab.dataset.tab;
    // Another kind of entry: the panel of the previous one goes.
    for (const selected of document.querySelectorAll('.entries .selected')) selected.classList.remove('selected');
    $('#detail').replaceChildren(placeholder());
    delete $('#detail').dataset.showing;
  });
}
$('#search').addEventListener('input', filterList);
$('#era').addEventListener('change', () => {
  // A new era, a new connection: the 2025 session (if any) is closed, the lists read again.
  if (sessionId) {
    void fetch(ENDPOINT, { method: 'DELETE', headers: { 'Mcp-Session-Id': sessionId, 'MCP-Protocol-Version': LEGACY_VERSION, ...(bearer() ? { Authorization: `Bearer ${bearer()}` } : {}) } }).catch(() => undefined);
  }
  sessionId = undefined;
  era = $('#era').value;
  document.body.dataset.era = era;
  void connect();
});
$('#token-form').addEventListener('submit', (event) => {
  event.preventDefault();
  sessionId = undefined;
  void connect();
});
$('#clear-log').addEventListener('click', () => $('#log-entries').replaceChildren());
document.body.dataset.era = era;
void connect();
