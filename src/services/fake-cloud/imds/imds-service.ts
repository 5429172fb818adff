import type { CloudState } from '../cloud-state.ts'
import { issueImdsToken, isValidImdsToken } from './imds-tokens.ts'
import { LISTING, metadataTree, type MetadataDirectory } from './metadata-tree.ts'
import { LightResponse } from '../../../core/light-response.ts'
import { explainResponse, listText, type Explanation } from '../../../core/explanation.ts'
import { didYouMean } from '../../../core/did-you-mean.ts'

/**
 * One instance's metadata service (IMDSv1 and v2, docs/reference/fake-cloud.md §2.1, docs/reference/fake-cloud.md §2.2): `PUT /latest/api/token` for a
 * session token, then GET (or HEAD) of `/latest/meta-data/…` and `/latest/dynamic/…`. Everything is
 * `text/plain`; a directory lists its children one per line, sub-directories with a trailing `/`. Paths are
 * answered with or without a trailing slash, directories and leaves alike.
 */
const TOKEN_HEADER = 'x-aws-ec2-metadata-token'
const TTL_HEADER = 'x-aws-ec2-metadata-token-ttl-seconds'
const MAX_TTL = 21600
const VERSIONS = ['1.0', '2007-01-19', '2016-09-02', '2021-03-23', '2022-09-24', 'latest']
const VERSION = /^(?:latest|1\.0|\d{4}-\d{2}-\d{2})$/

/** Answers `path` (starting at `/`) for the instance; an unknown instance answers 404 everywhere. */
export function serveImds(state: CloudState, instanceId: string | undefined, request: Request, path: string): Response {
  const instance = instanceId === undefined ? undefined : state.instances.get(instanceId)
  if (instance === undefined) {
    return statusPage(404, {
      rule: 'imds instance',
      seen: instanceId === undefined ? 'no instance in use: the fake cloud has none' : `instance ${instanceId}, which the fake cloud no longer has`,
      expected: 'an instance the metadata service answers for',
      hint: 'create one first (doppel.cloud.createInstance, or cloud.instances in a fixture); 169.254.169.254 answers for the one chosen with doppel.cloud.useInstance (cloud.use_instance), else the last created',
    })
  }
  const segments = path.split('/').filter((s) => s !== '')
  const isTokenPath = segments.length === 3 && segments[1] === 'api' && segments[2] === 'token'
  if (request.method === 'PUT') {
    if (!isTokenPath) return statusPage(405, { rule: 'imds method', seen: `PUT ${path}`, expected: 'PUT /latest/api/token, GET or HEAD elsewhere' })
    if (segments[0] !== 'latest') return statusPage(403, { rule: 'imds token path', seen: path, expected: '/latest/api/token' })
    if (request.headers.has('x-forwarded-for')) {
      return statusPage(403, { rule: 'imds token request', seen: 'an X-Forwarded-For header', hint: 'IMDS refuses a token request that came through a proxy' })
    }
    const ttl = request.headers.get(TTL_HEADER)
    if (ttl === null || !/^\d{1,5}$/.test(ttl) || Number(ttl) < 1 || Number(ttl) > MAX_TTL) {
      return statusPage(400, { rule: 'header X-aws-ec2-metadata-token-ttl-seconds', seen: ttl ?? 'none', expected: `1 to ${MAX_TTL} seconds` })
    }
    return text(issueImdsToken(state, instance.instance_id, Number(ttl)), request, { [TTL_HEADER]: String(Number(ttl)) })
  }
  if (request.method !== 'GET' && request.method !== 'HEAD') {
    return statusPage(405, { rule: 'imds method', seen: request.method, expected: 'GET or HEAD (PUT only for /latest/api/token)' })
  }
  if (isTokenPath) return statusPage(405, { rule: 'imds method', seen: `${request.method} ${path}`, expected: 'PUT for a session token' })
  const token = request.headers.get(TOKEN_HEADER)
  if (token !== null && !isValidImdsToken(state, instance.instance_id, token)) {
    return statusPage(401, {
      rule: 'imds session token',
      seen: 'an X-aws-ec2-metadata-token that is expired or was issued for another instance',
      hint: 'take a new one with PUT /latest/api/token',
    })
  }
  if (token === null && instance.http_tokens === 'required') {
    return statusPage(401, {
      rule: 'http_tokens',
      seen: `an IMDSv1 request (no X-aws-ec2-metadata-token header) to instance ${instance.instance_id}, whose http_tokens is required`,
      expected: 'IMDSv2: a session token from PUT /latest/api/token (header X-aws-ec2-metadata-token-ttl-seconds), sent as X-aws-ec2-metadata-token',
      hint: "use a client that speaks IMDSv2 (the AWS SDKs do), or create the instance with http_tokens: 'optional'",
    })
  }
  if (segments.length === 0) return text(VERSIONS.join('\n'), request)
  if (!VERSION.test(segments[0]!)) return statusPage(404, unknownPath(path, segments[0]!, VERSIONS))
  const tree: MetadataDirectory = metadataTree(state, instance)
  if (segments.length === 1) return text('dynamic\nmeta-data', request)
  let node: MetadataDirectory | (() => string) = tree
  for (const segment of segments.slice(1)) {
    if (typeof node === 'function') return statusPage(404, unknownPath(path, segment, []))
    if (!Object.hasOwn(node, segment)) return statusPage(404, unknownPath(path, segment, Object.keys(node)))
    node = node[segment]!
  }
  // Real IMDS answers a leaf with or without a trailing slash (botocore asks `placement/availability-zone/`).
  if (typeof node === 'function') return text(node(), request)
  const listing = node[LISTING] ?? Object.entries(node).map(([name, child]) => (typeof child === 'function' ? name : `${name}/`))
  return text(listing.join('\n'), request)
}

function text(body: string, request: Request, headers: Record<string, string> = {}): Response {
  return new LightResponse(request.method === 'HEAD' ? null : body, {
    status: 200,
    headers: { 'Content-Type': 'text/plain', Server: 'EC2ws', ...headers },
  })
}

const STATUS_TEXT: Record<number, string> = {
  400: 'Bad Request',
  401: 'Unauthorized',
  403: 'Forbidden',
  404: 'Not Found',
  405: 'Method Not Allowed',
}

/** A path the metadata tree lacks: the entries beside the missing one, and the likeliest typo. */
function unknownPath(path: string, segment: string, siblings: readonly string[]): Explanation {
  const near = didYouMean(segment, siblings)
  return {
    rule: 'imds path',
    seen: path,
    ...(siblings.length > 0 && { expected: `one of ${listText(siblings)} in place of ${segment}` }),
    ...(near !== undefined && { hint: `did you mean ${near}?` }),
  }
}

/** IMDS answers errors with a small HTML page; the explanation goes to the journal beside it. */
function statusPage(status: number, explanation: Explanation): Response {
  const title = `${status} - ${STATUS_TEXT[status]}`
  const body =
    '<?xml version="1.0" encoding="iso-8859-1"?>\n' +
    '<!DOCTYPE html PUBLIC "-//W3C//DTD XHTML 1.0 Transitional//EN"\n\t"http://www.w3.org/TR/xhtml1/DTD/xhtml1-transitional.dtd">\n' +
    '<html xmlns="http://www.w3.org/1999/xhtml" xml:lang="en" lang="en">\n' +
    ` <head>\n  <title>${title}</title>\n </head>\n <body>\n  <h1>${title}</h1>\n </body>\n</html>\n`
  return explainResponse(new LightResponse(body, { status, headers: { 'Content-Type': 'text/html', Server: 'EC2ws' } }), explanation)
}
