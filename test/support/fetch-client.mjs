// A client in a process of its own, as an application using the official SDKs is: Node's fetch POSTs
// `message` (its params padded with `paddingBytes` characters) to `url` with `headers`, `tries` times,
// and prints one JSON line per try: the status and body it read, or the error fetch failed with.
// (In the test's own process, client and server share one event loop, which hides the race a separate
// client loses when the server closes while it is still sending.)
// With `stream`, the body is a stream of 64 KiB pieces, sent without a declared length (chunked).
// Usage: node fetch-client.mjs '{"url":…,"headers":{…},"message":{…},"paddingBytes":…,"tries":…,"stream":false}'
const { url, headers, message, paddingBytes, tries, stream } = JSON.parse(process.argv[2]);
const text = JSON.stringify({ ...message, params: { ...message.params, padding: 'x'.repeat(paddingBytes) } });

function pieces() {
  const bytes = new TextEncoder().encode(text);
  let at = 0;
  return new ReadableStream({
    pull(controller) {
      if (at >= bytes.length) return controller.close();
      controller.enqueue(bytes.subarray(at, (at += 64 * 1024)));
    },
  });
}

for (let attempt = 1; attempt <= tries; attempt++) {
  try {
    const response = await fetch(url, { method: 'POST', headers, ...(stream ? { body: pieces(), duplex: 'half' } : { body: text }) });
    console.log(JSON.stringify({ attempt, status: response.status, body: await response.json() }));
  } catch (error) {
    console.log(JSON.stringify({ attempt, error: String(error.cause?.code ?? error.cause?.message ?? error.message) }));
  }
}
