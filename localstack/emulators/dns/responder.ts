/**
 * Turns one query packet into one response packet: decode, check what is asked, answer from the
 * local records or forward, then encode within the transport's size limit (UDP: 512 bytes, or the
 * client's EDNS size capped at EDNS_UDP_SIZE; TCP: 65535).
 *
 * Responses: opcode other than QUERY -> NOTIMP; not exactly one question -> FORMERR; EDNS version
 * above 0 -> BADVERS; zone transfers (AXFR/IXFR) and MAILA/MAILB -> NOTIMP; a class other than IN
 * (or ANY) -> REFUSED. Names outside the local zones are forwarded when upstreams are configured
 * (SERVFAIL if none answers), else answered NXDOMAIN (non-authoritative) or REFUSED, per
 * `unknownNames`. Packets that do not decode, and responses, are dropped (undefined). A question whose
 * name dns-packet cannot give back as sent (wire.ts, questionNameIsExact) gets FORMERR without it.
 */
import type { OptAnswer } from 'dns-packet';
import { answerLocally } from './answer';
import { CLASSIC_UDP_SIZE, EDNS_UDP_SIZE, MAX_MESSAGE_SIZE, NOT_IMPLEMENTED_TYPES, OPCODE_QUERY, RCODE, typeName } from './constants';
import type { DnsMessage, ResourceRecord } from './dns-message';
import type { Forwarder } from './forward';
import type { QueryLog } from './query-log';
import type { RecordStore } from './store';
import { encodeResponse } from './truncate';
import { decodeMessage, questionNameIsExact } from './wire';

export type Transport = 'udp' | 'tcp';
export type UnknownNamePolicy = 'nxdomain' | 'refused';

const RCODE_NAMES = new Map<number, string>(Object.entries(RCODE).map(([k, v]) => [v, k]));

export interface ResponderOptions {
  store: RecordStore;
  forwarder: Forwarder;
  unknownNames: UnknownNamePolicy;
  log: (msg: string) => void;
  /** Keeps each decoded question (GET /_local/dns/queries). */
  queryLog?: QueryLog;
}

export class Responder {
  constructor(private readonly opts: ResponderOptions) {}

  /** The response to send back, or undefined to drop the packet. Never throws. */
  async handle(packet: Buffer, transport: Transport, from: string): Promise<Buffer | undefined> {
    let query: DnsMessage;
    try {
      query = decodeMessage(packet);
    } catch (err) {
      this.opts.log(
        `dns: dropped a malformed ${transport} packet from ${from} (${packet.length} bytes): ${err instanceof Error ? err.message : String(err)}`,
      );
      return undefined;
    }
    if (query.qr) {
      this.opts.log(`dns: dropped a response packet sent to the server by ${from}`);
      return undefined;
    }
    const question = query.questions[0];
    if (question) this.opts.queryLog?.record(question.name, typeName(question.type), transport);
    if (question && !questionNameIsExact(packet, question)) query.questions = [];
    const optRecords = query.additionals.filter(isOpt);
    const opt = optRecords[0];
    const maxSize =
      transport === 'tcp'
        ? MAX_MESSAGE_SIZE
        : opt
          ? Math.min(Math.max(opt.udpPayloadSize, CLASSIC_UDP_SIZE), EDNS_UDP_SIZE)
          : CLASSIC_UDP_SIZE;
    let response: DnsMessage;
    try {
      response = await this.respond(query, optRecords.length);
    } catch (err) {
      this.opts.log(`dns: internal error answering ${describe(query)}: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}`);
      response = this.reply(query, RCODE.SERVFAIL);
    }
    if (opt) response.additionals = [...response.additionals.filter(isNotOpt), optRecord(response.rcode)];
    response.rcode &= 0xf;
    this.opts.log(
      `dns: ${transport} ${describe(query)} -> ${RCODE_NAMES.get(extendedRcode(response)) ?? extendedRcode(response)}` +
        ` (${response.answers.length} answer${response.answers.length === 1 ? '' : 's'}${response.aa ? ', authoritative' : ''})`,
    );
    try {
      return encodeResponse(response, maxSize);
    } catch (err) {
      this.opts.log(`dns: could not encode the answer to ${describe(query)}: ${err instanceof Error ? err.message : String(err)}`);
      return encodeResponse({ ...this.reply(query, RCODE.SERVFAIL), additionals: opt ? [optRecord(RCODE.SERVFAIL)] : [] }, maxSize);
    }
  }

  /** A response whose rcode may exceed 15 (the OPT record is added by handle()). */
  private async respond(query: DnsMessage, optCount: number): Promise<DnsMessage> {
    if (query.opcode !== OPCODE_QUERY) return this.reply(query, RCODE.NOTIMP);
    const question = query.questions[0];
    if (query.questions.length !== 1 || !question || optCount > 1) return this.reply(query, RCODE.FORMERR);
    // RFC 6891 6.1.3: a version the server does not implement gets BADVERS.
    if ((query.additionals.find(isOpt)?.ednsVersion ?? 0) !== 0) return this.reply(query, RCODE.BADVERS);
    const qtype = question.type;
    if (qtype === 'OPT') return this.reply(query, RCODE.FORMERR);
    if (NOT_IMPLEMENTED_TYPES.has(qtype)) return this.reply(query, RCODE.NOTIMP);
    if (question.class !== 'IN' && question.class !== 'ANY') return this.reply(query, RCODE.REFUSED);

    const local = answerLocally(this.opts.store, question);
    const { forwarder } = this.opts;
    if (local) {
      const response: DnsMessage = { ...this.reply(query, local.rcode), aa: true, answers: local.answers, authorities: local.authorities };
      if (local.external !== undefined && forwarder.enabled) {
        const upstream = await forwarder.resolve(local.external, qtype);
        if (!upstream) return this.reply(query, RCODE.SERVFAIL);
        response.rcode = upstream.rcode;
        response.answers.push(...upstream.answers);
        response.authorities = upstream.authorities.filter(isNotOpt);
      }
      return response;
    }
    if (forwarder.enabled) {
      const upstream = await forwarder.forward(query);
      if (!upstream) return this.reply(query, RCODE.SERVFAIL);
      return {
        ...upstream,
        id: query.id,
        ra: true,
        questions: query.questions,
        additionals: upstream.additionals.filter(isNotOpt),
        rcode: extendedRcode(upstream),
      };
    }
    return this.reply(query, this.opts.unknownNames === 'refused' ? RCODE.REFUSED : RCODE.NXDOMAIN);
  }

  /** An empty response to `query` with the given rcode. */
  private reply(query: DnsMessage, rcode: number): DnsMessage {
    return {
      id: query.id,
      qr: true,
      opcode: query.opcode,
      aa: false,
      tc: false,
      rd: query.rd,
      ra: this.opts.forwarder.enabled,
      z: 0,
      rcode,
      questions: query.questions.length === 1 ? query.questions : [],
      answers: [],
      authorities: [],
      additionals: [],
    };
  }
}

function isOpt(rr: ResourceRecord): rr is OptAnswer {
  return rr.type === 'OPT';
}

function isNotOpt(rr: ResourceRecord): boolean {
  return !isOpt(rr);
}

/** Our OPT record (RFC 6891 6.1.2): advertised UDP size, and the upper 8 bits of an extended rcode. */
function optRecord(rcode: number): OptAnswer {
  return {
    name: '.',
    type: 'OPT',
    udpPayloadSize: EDNS_UDP_SIZE,
    extendedRcode: (rcode >> 4) & 0xff,
    ednsVersion: 0,
    flags: 0,
    flag_do: false,
    options: [],
  };
}

/** Full rcode of a message: header bits plus an OPT record's extended bits. */
function extendedRcode(msg: DnsMessage): number {
  return ((msg.additionals.find(isOpt)?.extendedRcode ?? 0) << 4) | msg.rcode;
}

function describe(query: DnsMessage): string {
  const q = query.questions[0];
  if (!q) return `query #${query.id} without a question`;
  return `${typeName(q.type)} ${q.name || '.'}`;
}
