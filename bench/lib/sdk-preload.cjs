/**
 * The benchmark's eyes in the stack: preloaded with NODE_OPTIONS="--require <this file>" into every Node
 * process of the stack. Node applies NODE_OPTIONS preloads to every thread it starts (worker_threads
 * included), so this runs once per thread: the API thread, the workers thread, and also the internal
 * thread that runs tsx's module-loader hooks, which is skipped (it has no parentPort and makes no SDK
 * call). A thread is instrumented once (a global guard), so loading this twice counts nothing twice.
 *
 * It patches the AWS SDK v3 `Client.prototype.send` (@smithy/core/client, the one copy in node_modules)
 * and adds one middleware, innermost in the deserialize step, to every client's stack, so it sees each
 * HTTP attempt (retries included) with its service and operation. Per attempt it can:
 *  - count it, by origin, service and operation (BENCH_SDK_DIR set);
 *  - count it as a failed conditional write when it fails with ConditionalCheckFailedException, or with
 *    TransactionCanceledException naming a ConditionalCheckFailed reason (one per transaction), by
 *    origin, service and operation (BENCH_SDK_DIR; seen by a second middleware, outside the
 *    deserializer, so the error is the parsed one);
 *  - record the item keys (PK|SK) of DynamoDB writes per wall-clock second (hot items; BENCH_SDK_DIR);
 *  - delay it by an in-region AWS latency sampled from aws-latency.cjs (BENCH_AWS_LATENCY=1), for product
 *    and event-source calls only;
 *  - meter what AWS bills by (BENCH_COST=1, with BENCH_SDK_DIR): each DynamoDB call asks for its
 *    ConsumedCapacity (ReturnConsumedCapacity INDEXES, unless the caller asked for it) and the read and
 *    write request units it consumed are added up by table and index (DynamoDB Local computes them with
 *    AWS's sizing rules: 1 KB per write unit, 4 KB per read unit, half for eventual reads, double for
 *    transactions, every index entry written); each SQS call is counted in 64 KB chunks of its request or
 *    response, whichever is larger (SQS bills each 64 KB chunk of a payload as one request); S3 PUT bytes.
 *
 * Origin: the file of the first frame outside node_modules that called `send` on that client the first
 * time (clients are built by one component each): shared/, functions/ -> product; localstack/emulators/
 * -> emulator (calls an emulator makes on AWS's behalf, e.g. the SES emulator publishing to SNS);
 * localstack/cloud/{messaging/sqs-poller,streams/stream-poller,workers/workers-runtime} -> event-source (the Lambda service's
 * pollers: ReceiveMessage, DeleteMessageBatch, GetRecords, on-failure sends); other localstack/ ->
 * local-cloud (provisioning, health checks); bench/ -> bench. `tag(client, origin)` sets it explicitly.
 *
 * Files (BENCH_SDK_DIR): sdk-<pid>-<threadId>.json (running totals: `calls`, `conditionalFailures`,
 * `injected`, `units` ("origin\tservice\tmeter" -> amount: "DynamoDB\tWRU <table or index>", "RRU ...",
 * "SQS\trequests", "S3\tPUT bytes"), `partitionReads` ("<table or index>\t<partition key>" -> the read
 * units of the product's calls); rewritten every 250 ms) and
 * writes-<pid>-<threadId>.jsonl (one line per past second: total DynamoDB item writes and the top keys).
 */
'use strict';
const wt = require('node:worker_threads');
const { appendFileSync, mkdirSync, readFileSync, renameSync, writeFileSync } = require('node:fs');
const { join, relative, sep } = require('node:path');
const { findSourceMap } = require('node:module');

const GUARD = Symbol.for('mailservice.bench.sdk-preload');
const dir = process.env.BENCH_SDK_DIR;
const latencyOn = process.env.BENCH_AWS_LATENCY === '1';
const costOn = process.env.BENCH_COST === '1';
const loaderHooksThread = !wt.isMainThread && wt.parentPort === null;

/** Origins whose calls are delayed under --aws-latency (what would cross the network to AWS). */
const DELAYED = new Set(['product', 'event-source', 'bench']);
const DYNAMO_WRITES = new Set(['PutItem', 'UpdateItem', 'DeleteItem', 'TransactWriteItems', 'BatchWriteItem']);
const TOP_KEYS_PER_SECOND = 25;
/** DynamoDB operations that take ReturnConsumedCapacity. */
const CAPACITY_OPERATIONS = new Set([
  'GetItem',
  'BatchGetItem',
  'Query',
  'Scan',
  'TransactGetItems',
  'PutItem',
  'UpdateItem',
  'DeleteItem',
  'BatchWriteItem',
  'TransactWriteItems',
]);
const READ_OPERATIONS = new Set(['GetItem', 'BatchGetItem', 'Query', 'Scan', 'TransactGetItems']);
const SQS_CHUNK_BYTES = 64 * 1024;

function loadClientClass() {
  for (const id of ['@smithy/core/client', '@smithy/smithy-client']) {
    try {
      const resolved = require.resolve(id, { paths: [process.cwd(), __dirname] });
      const Client = require(resolved).Client;
      if (Client?.prototype && typeof Client.prototype.send === 'function') return Client;
    } catch {
      // try the next layout
    }
  }
  return null;
}

/** Where the local cloud's bundles live (node_modules/.cache/mailservice-commands/, docs/local-cloud/bundles.md). */
const BUNDLE_DIR = `${sep}node_modules${sep}.cache${sep}mailservice-commands${sep}`;

/**
 * A call site's source file: for a frame in one of the local cloud's bundles (every frame of `npm start`'s code
 * is), the TypeScript file its source map names (the bundles are built with source maps and run with them
 * enabled), else the frame's own file. Without this every call of a bundled stack had no origin.
 */
function sourceFileOf(frame) {
  const file = frame?.getFileName?.() || '';
  if (!file.includes(BUNDLE_DIR)) return file;
  try {
    const map = findSourceMap(file);
    const entry = map?.findEntry((frame.getLineNumber() || 1) - 1, (frame.getColumnNumber() || 1) - 1);
    const source = entry?.originalSource;
    if (!source) return file;
    return source.startsWith('file://') ? decodeURIComponent(source.slice(7)) : source;
  } catch {
    return file;
  }
}

function originOfFile(file) {
  let path = file.startsWith('file://') ? decodeURIComponent(file.slice(7)) : file;
  const rel = relative(process.cwd(), path);
  if (!rel.startsWith('..')) path = `${sep}${rel}`;
  const has = (part) => path.includes(`${sep}${part}${sep}`) || path.startsWith(`${sep}${part}${sep}`);
  if (has('localstack')) {
    if (path.includes(`${sep}localstack${sep}emulators${sep}`)) return 'emulator';
    if (
      /[\\/]localstack[\\/]cloud[\\/](messaging[\\/]sqs-poller|streams[\\/]stream-poller|workers[\\/]workers-(runtime|thread))\./.test(path)
    )
      return 'event-source';
    return 'local-cloud';
  }
  if (has('bench')) return 'bench';
  if (has('shared') || has('functions')) return 'product';
  if (has('test')) return 'test';
  return null;
}

/** A key attribute's value, from the document client's plain form or DynamoDB's wire form. */
const plainValue = (value) => (value && typeof value === 'object' ? (value.S ?? value.N ?? (value.B ? '<binary>' : undefined)) : value);
const keyText = (key) => `${plainValue(key?.PK)}\u0000${plainValue(key?.SK)}`;
/**
 * DynamoDB processes each key of a BatchGetItem as an individual GetItem
 * (https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/read-write-operations.html), and a GetItem
 * of an item that does not exist still consumes the minimum, 1 unit strongly consistent and 0.5 eventually
 * consistent (DynamoDB Local's own GetItem reports it so); DynamoDB Local's BatchGetItem reports nothing for
 * such keys. Their units by table (`each` a key), added to what it reported.
 */
function missingReadUnits(input, output) {
  const missing = new Map();
  for (const [table, request] of Object.entries(input.RequestItems || {})) {
    const returned = new Set((output.Responses?.[table] || []).map(keyText));
    const unprocessed = new Set((output.UnprocessedKeys?.[table]?.Keys || []).map(keyText));
    const keys = (request?.Keys || []).filter((key) => !returned.has(keyText(key)) && !unprocessed.has(keyText(key)));
    const each = request?.ConsistentRead ? 1 : 0.5;
    if (keys.length) missing.set(table, { keys, each });
  }
  return missing;
}

function install() {
  const Client = loadClientClass();
  if (!Client) return null;
  const latency = latencyOn ? require('./aws-latency.cjs') : null;
  const threadId = wt.threadId;
  let tid = 0;
  try {
    tid = Number(readFileSync('/proc/thread-self/stat', 'utf8').split(' ')[0]) || 0;
  } catch {
    // not Linux
  }

  const calls = Object.create(null);
  /** "origin\tservice\toperation" -> failed conditional writes so far. */
  const conditionalFailures = Object.create(null);
  const injected = Object.create(null);
  /** "origin\tservice\tmeter" -> amount so far (BENCH_COST). */
  const units = Object.create(null);
  /** "<table|index>\t<partition key value>" -> read units so far, product calls only (BENCH_COST). */
  const partitionReads = Object.create(null);
  const addUnits = (origin, service, meter, amount) => {
    if (!(amount > 0)) return;
    const name = `${origin}\t${service}\t${meter}`;
    units[name] = (units[name] || 0) + amount;
    dirty = true;
  };
  /** epoch second -> Map(key -> writes) */
  const writes = new Map();
  let dirty = false;

  // The product's log lines (shared/lib/log.ts: one JSON object a line, `{"level":...`), in bytes, as
  // CloudWatch Logs ingests them: the stream writes of this thread counted before they go on (BENCH_COST).
  if (costOn) {
    for (const stream of [process.stdout, process.stderr]) {
      const write = stream.write;
      stream.write = function countedWrite(chunk, ...rest) {
        if (
          typeof chunk === 'string'
            ? chunk.startsWith('{"level"')
            : Buffer.isBuffer(chunk) && chunk.subarray(0, 8).toString() === '{"level"'
        )
          addUnits('product', 'CloudWatch Logs', 'bytes', Buffer.byteLength(chunk));
        return write.call(this, chunk, ...rest);
      };
    }
  }

  const originByStack = new WeakMap();
  const instrumented = new WeakSet();
  const originalSend = Client.prototype.send;

  function originFromCaller() {
    const limit = Error.stackTraceLimit;
    const prepare = Error.prepareStackTrace;
    let frames = [];
    try {
      Error.stackTraceLimit = 40;
      Error.prepareStackTrace = (_, callSites) => callSites;
      const holder = {};
      Error.captureStackTrace(holder, patchedSend);
      frames = holder.stack || [];
    } finally {
      Error.prepareStackTrace = prepare;
      Error.stackTraceLimit = limit;
    }
    for (const frame of frames) {
      const file = sourceFileOf(frame);
      if (!file || file.startsWith('node:') || file.includes(`${sep}node_modules${sep}`) || file === __filename) continue;
      const origin = originOfFile(file);
      if (origin) return origin;
    }
    return null;
  }

  const serviceOf = (clientName) => {
    const name = String(clientName || '?').replace(/Client$/, '');
    if (name === 'SESv2' || name === 'SES') return 'SES';
    if (name === 'DynamoDBStreams') return 'DynamoDB Streams';
    return name;
  };

  const keyOf = (key) => {
    if (!key || typeof key !== 'object') return '?';
    const value = (attribute) => (attribute ? (attribute.S ?? attribute.N ?? attribute.B ?? JSON.stringify(attribute)) : '');
    if (key.PK || key.SK) return `${value(key.PK)}|${value(key.SK)}`;
    return JSON.stringify(key);
  };

  function recordWrites(operation, body) {
    if (!dir || !body) return;
    let input;
    try {
      // The SDK's JSON body is bytes (a Uint8Array that also answers string methods, with a warning).
      const text =
        typeof body === 'string'
          ? body
          : body instanceof Uint8Array
            ? Buffer.from(body.buffer, body.byteOffset, body.byteLength).toString('utf8')
            : null;
      if (text === null) return;
      input = JSON.parse(text);
    } catch {
      return;
    }
    const keys = [];
    if (operation === 'PutItem') keys.push(keyOf(input.Item));
    else if (operation === 'UpdateItem' || operation === 'DeleteItem') keys.push(keyOf(input.Key));
    else if (operation === 'TransactWriteItems') {
      for (const item of input.TransactItems || []) {
        if (item.Put) keys.push(keyOf(item.Put.Item));
        else if (item.Update) keys.push(keyOf(item.Update.Key));
        else if (item.Delete) keys.push(keyOf(item.Delete.Key));
        // ConditionCheck writes nothing.
      }
    } else if (operation === 'BatchWriteItem') {
      for (const requests of Object.values(input.RequestItems || {})) {
        for (const request of requests) {
          if (request.PutRequest) keys.push(keyOf(request.PutRequest.Item));
          else if (request.DeleteRequest) keys.push(keyOf(request.DeleteRequest.Key));
        }
      }
    }
    const second = Math.floor(Date.now() / 1000);
    let bucket = writes.get(second);
    if (!bucket) {
      bucket = new Map();
      writes.set(second, bucket);
    }
    for (const key of keys) bucket.set(key, (bucket.get(key) || 0) + 1);
    dirty = true;
  }

  const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
  /** Recent average time of each operation against the emulators (ms), subtracted from the modelled latency. */
  const localTime = Object.create(null);

  const observer = (stack) => (next, context) => async (args) => {
    const origin = originByStack.get(stack) || 'unknown';
    const service = serviceOf(context.clientName);
    const operation = String(context.commandName || '?').replace(/Command$/, '');
    try {
      if (dir) {
        const name = `${origin}\t${service}\t${operation}`;
        calls[name] = (calls[name] || 0) + 1;
        dirty = true;
        if (service === 'DynamoDB' && DYNAMO_WRITES.has(operation)) recordWrites(operation, args.request?.body);
      }
    } catch {
      // observing must never break a call
    }
    if (latency && DELAYED.has(origin)) {
      // The call takes about the sampled AWS latency: the delay, applied BEFORE the call (so its side
      // effects land at the end of the window, as on AWS), is the sample minus this operation's recent
      // average emulator time, so local round trips are not added on top of AWS's.
      const name = `${service} ${operation}`;
      const ms = latency.sample(service, operation);
      const wait = ms - (localTime[name] || 0);
      if (!injected[name]) injected[name] = [0, 0];
      const entry = injected[name];
      entry[0] += 1;
      entry[1] += ms;
      dirty = true;
      if (wait > 0) await sleep(wait);
      const started = performance.now();
      let result;
      try {
        result = await next(args);
      } finally {
        const took = performance.now() - started;
        localTime[name] = localTime[name] === undefined ? took : localTime[name] * 0.9 + took * 0.1;
      }
      return result;
    }
    return next(args);
  };

  /** A condition that did not hold: the write was refused (TransactionConflict alone is not one). */
  const isConditionalFailure = (error) => {
    if (!error || typeof error !== 'object') return false;
    if (error.name === 'ConditionalCheckFailedException') return true;
    if (error.name !== 'TransactionCanceledException') return false;
    const reasons = Array.isArray(error.CancellationReasons) ? error.CancellationReasons : [];
    return reasons.some((reason) => reason && reason.Code === 'ConditionalCheckFailed');
  };

  /**
   * Outside the deserializer (priority high in the deserialize step) and inside the retry middleware, so
   * it sees each attempt's parsed error; it only looks and re-throws.
   */
  const failureObserver = (stack) => (next, context) => async (args) => {
    try {
      return await next(args);
    } catch (error) {
      try {
        if (dir && isConditionalFailure(error)) {
          const origin = originByStack.get(stack) || 'unknown';
          const name = `${origin}\t${serviceOf(context.clientName)}\t${String(context.commandName || '?').replace(/Command$/, '')}`;
          conditionalFailures[name] = (conditionalFailures[name] || 0) + 1;
          dirty = true;
        }
      } catch {
        // observing must never break a call
      }
      throw error;
    }
  };

  /** The read or write units of one ConsumedCapacity entry, by table and by index. */
  function addCapacity(origin, operation, consumed) {
    const kind = READ_OPERATIONS.has(operation) ? 'RRU' : 'WRU';
    for (const entry of Array.isArray(consumed) ? consumed : consumed ? [consumed] : []) {
      const table = entry.Table ? entry.Table.CapacityUnits : entry.CapacityUnits;
      addUnits(origin, 'DynamoDB', `${kind} table`, table);
      for (const [index, used] of Object.entries(entry.GlobalSecondaryIndexes || {}))
        addUnits(origin, 'DynamoDB', `${kind} ${index}`, used?.CapacityUnits);
      for (const [index, used] of Object.entries(entry.LocalSecondaryIndexes || {}))
        addUnits(origin, 'DynamoDB', `${kind} ${index}`, used?.CapacityUnits);
    }
  }

  /** Outermost (initialize step): asks DynamoDB for the capacity a call consumed and adds it up. */
  /** A key attribute's value, from the document client's plain form or DynamoDB's wire form. */
  const plain = (value) => (value && typeof value === 'object' ? (value.S ?? value.N ?? (value.B ? '<binary>' : undefined)) : value);

  /**
   * The partitions a read touched, each with its share of the units the read consumed: GetItem and each
   * key of a BatchGetItem (its table's units shared evenly among its keys), a Query's partition (its key
   * condition's `<partition attribute> = :value`).
   */
  function addPartitionReads(operation, input, consumed, batchGetMissing = new Map()) {
    const entries = Array.isArray(consumed) ? consumed : consumed ? [consumed] : [];
    const unitsOf = (table) =>
      entries.filter((entry) => entry.TableName === table).reduce((sum, entry) => sum + (entry.CapacityUnits || 0), 0);
    const add = (where, pk, amount) => {
      if (pk === undefined || !(amount > 0)) return;
      const name = `${where}\t${pk}`;
      partitionReads[name] = (partitionReads[name] || 0) + amount;
      dirty = true;
    };
    if (operation === 'GetItem') add('table', plain(input.Key?.PK), unitsOf(input.TableName));
    else if (operation === 'BatchGetItem') {
      for (const [table, request] of Object.entries(input.RequestItems || {})) {
        const keys = request?.Keys || [];
        const missing = new Set((batchGetMissing.get(table) || { keys: [] }).keys.map(keyText));
        const found = keys.filter((key) => !missing.has(keyText(key)));
        // Found keys share what DynamoDB Local reported; a missing key is the minimum read (missingReadUnits).
        for (const key of found) add('table', plain(key.PK), unitsOf(table) / found.length);
        for (const key of keys.filter((key) => missing.has(keyText(key))))
          add('table', plain(key.PK), (batchGetMissing.get(table) || { each: 0 }).each);
      }
    } else if (operation === 'Query') {
      const names = input.ExpressionAttributeNames || {};
      const values = input.ExpressionAttributeValues || {};
      for (const match of String(input.KeyConditionExpression || '').matchAll(/([#\w]+)\s*=\s*(:\w+)/g)) {
        const attribute = names[match[1]] || match[1];
        if (!/^(PK|GSI\d+PK)$/.test(attribute)) continue;
        add(input.IndexName || 'table', plain(values[match[2]]), unitsOf(input.TableName));
        break;
      }
    }
  }

  const capacityMeter = (stack) => (next, context) => async (args) => {
    const operation = String(context.commandName || '?').replace(/Command$/, '');
    if (serviceOf(context.clientName) !== 'DynamoDB' || !CAPACITY_OPERATIONS.has(operation) || !args.input) return next(args);
    const asked = args.input.ReturnConsumedCapacity !== undefined;
    if (!asked) args.input.ReturnConsumedCapacity = 'INDEXES';
    const result = await next(args);
    try {
      const origin = originByStack.get(stack) || 'unknown';
      addCapacity(origin, operation, result?.output?.ConsumedCapacity);
      const missing = operation === 'BatchGetItem' && result && result.output ? missingReadUnits(args.input, result.output) : new Map();
      for (const { keys, each } of missing.values()) addUnits(origin, 'DynamoDB', 'RRU table', keys.length * each);
      if (origin === 'product' && READ_OPERATIONS.has(operation))
        addPartitionReads(operation, args.input, result?.output?.ConsumedCapacity, missing);
      // The caller did not ask: it gets the answer it would have had.
      if (!asked && result && result.output) delete result.output.ConsumedCapacity;
    } catch {
      // observing must never break a call
    }
    return result;
  };

  const byteLength = (body) => (typeof body === 'string' ? Buffer.byteLength(body) : body instanceof Uint8Array ? body.byteLength : 0);
  const headerBytes = (headers) => Number((headers && (headers['content-length'] || headers['Content-Length'])) || 0);

  /** SQS requests in 64 KB chunks, and bytes PUT to S3, from the raw request and response (innermost). */
  const payloadMeter = (stack) => (next, context) => async (args) => {
    const service = serviceOf(context.clientName);
    if (service !== 'SQS' && service !== 'S3') return next(args);
    const result = await next(args);
    try {
      const origin = originByStack.get(stack) || 'unknown';
      const request = args.request || {};
      if (service === 'SQS') {
        const bytes = Math.max(byteLength(request.body), headerBytes(result?.response?.headers));
        addUnits(origin, 'SQS', 'requests', Math.max(1, Math.ceil(bytes / SQS_CHUNK_BYTES)));
      } else if (String(context.commandName) === 'PutObjectCommand') {
        addUnits(origin, 'S3', 'PUT bytes', headerBytes(request.headers) || byteLength(request.body));
      }
    } catch {
      // observing must never break a call
    }
    return result;
  };

  function instrument(stack) {
    if (instrumented.has(stack)) return;
    instrumented.add(stack);
    stack.add(observer(stack), { step: 'deserialize', priority: 'low', name: 'benchSdkObserver', override: true });
    if (dir)
      stack.add(failureObserver(stack), { step: 'deserialize', priority: 'high', name: 'benchSdkConditionalObserver', override: true });
    if (dir && costOn) {
      stack.add(capacityMeter(stack), { step: 'initialize', priority: 'high', name: 'benchSdkCapacityMeter', override: true });
      stack.add(payloadMeter(stack), { step: 'deserialize', priority: 'low', name: 'benchSdkPayloadMeter', override: true });
    }
  }

  function patchedSend(...args) {
    try {
      const stack = this.middlewareStack;
      if (stack && typeof stack.add === 'function') {
        const known = originByStack.get(stack);
        if (known === undefined || known === 'unknown') originByStack.set(stack, originFromCaller() || 'unknown');
        instrument(stack);
      }
    } catch {
      // observing must never break a call
    }
    return originalSend.apply(this, args);
  }
  Client.prototype.send = patchedSend;

  if (dir) {
    mkdirSync(dir, { recursive: true });
    const base = join(dir, `sdk-${process.pid}-${threadId}`);
    const flush = (final) => {
      // Seconds that are over (or all, at exit) go to the writes log as their top keys.
      const now = Math.floor(Date.now() / 1000);
      for (const [second, bucket] of writes) {
        if (!final && second >= now - 1) continue;
        let total = 0;
        for (const count of bucket.values()) total += count;
        const top = [...bucket].sort((a, b) => b[1] - a[1]).slice(0, TOP_KEYS_PER_SECOND);
        appendFileSync(`${base}.writes.jsonl`, `${JSON.stringify({ second, total, top })}\n`);
        writes.delete(second);
      }
      if (!dirty && !final) return;
      dirty = false;
      const state = {
        pid: process.pid,
        threadId,
        tid,
        mainThread: wt.isMainThread,
        argv1: process.argv[1] || '',
        calls,
        conditionalFailures,
        injected,
        units,
        partitionReads,
      };
      writeFileSync(`${base}.json.tmp`, JSON.stringify(state));
      renameSync(`${base}.json.tmp`, `${base}.json`);
    };
    flush(true);
    setInterval(() => {
      try {
        flush(false);
      } catch {
        // the bench may have removed the folder
      }
    }, 250).unref();
    process.on('exit', () => {
      try {
        flush(true);
      } catch {
        // ignore
      }
    });
  }

  return {
    /** Sets the origin of a client's calls explicitly (the benchmark's own clients). */
    tag(client, origin) {
      originByStack.set(client.middlewareStack, origin);
      instrument(client.middlewareStack);
    },
  };
}

if (!globalThis[GUARD] && !loaderHooksThread && (dir || latencyOn)) {
  require('./preload-in-workers.cjs').inheritPreload(__filename);
  try {
    globalThis[GUARD] = install() || { tag() {} };
  } catch {
    globalThis[GUARD] = { tag() {} };
  }
}

module.exports = globalThis[GUARD] || { tag() {} };
// For their unit tests (test/unit/bench/sdk-preload-reads.test.ts, sdk-preload-origin.test.ts): pure.
module.exports.missingReadUnits = missingReadUnits;
module.exports.sourceFileOf = sourceFileOf;
module.exports.originOfFile = originOfFile;
