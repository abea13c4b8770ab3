/**
 * Preloaded with NODE_OPTIONS="--require <this file>" into the stack: counts the process's outgoing HTTP
 * requests (the AWS SDK's calls to DynamoDB Local, fauxqs and the SES emulator) by operation, and writes
 * the running totals to <CALL_COUNT_DIR>/<pid>.json every 200 ms. Operations are named by the
 * X-Amz-Target header (DynamoDB, SQS JSON protocol), else by the Action of a query-protocol body (SNS),
 * else by method and path (SES v2 REST). Every request with an agent (the SDK's keep-alive agents) goes
 * through Agent#addRequest.
 */
'use strict';
const http = require('node:http');
const { mkdirSync, renameSync, writeFileSync } = require('node:fs');
const { join } = require('node:path');

const dir = process.env.CALL_COUNT_DIR;
// Main thread only: loader-hook threads (tsx registers ESM hooks on a worker) share the pid and run preloads too.
if (dir && require('node:worker_threads').isMainThread) {
  const counts = Object.create(null);
  const originalAddRequest = http.Agent.prototype.addRequest;
  http.Agent.prototype.addRequest = function addRequest(req, options) {
    try {
      let name = req.getHeader('x-amz-target');
      if (!name) {
        const path = String(req.path || '/').split('?')[0];
        name = `${req.method} ${path.replace(/\/[^/]*[0-9][^/]*$/, '/{id}')}`;
        // Query protocol (SNS Publish, ...): the action is in the body, which is written later.
        const write = req.write;
        const end = req.end;
        let counted = false;
        const peek = (chunk) => {
          if (counted || !chunk) return;
          const match = /(?:^|&)Action=([A-Za-z]+)/.exec(String(chunk));
          if (match) {
            counted = true;
            counts[`${name} Action=${match[1]}`] = (counts[`${name} Action=${match[1]}`] || 0) + 1;
          }
        };
        req.write = function (chunk, ...rest) {
          peek(chunk);
          return write.call(this, chunk, ...rest);
        };
        req.end = function (chunk, ...rest) {
          peek(typeof chunk === 'function' ? undefined : chunk);
          if (!counted) {
            counted = true;
            counts[name] = (counts[name] || 0) + 1;
          }
          return end.call(this, chunk, ...rest);
        };
      } else {
        counts[name] = (counts[name] || 0) + 1;
      }
    } catch {
      // counting must never break a request
    }
    return originalAddRequest.call(this, req, options);
  };
  mkdirSync(dir, { recursive: true });
  const file = join(dir, `${process.pid}.json`);
  const flush = () => {
    writeFileSync(`${file}.tmp`, JSON.stringify(counts));
    renameSync(`${file}.tmp`, file);
  };
  setInterval(flush, 200).unref();
  process.on('exit', flush);
}
