import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { LightResponse } from '../../../../core/light-response.ts'
import { stsXml } from '../../../fake-cloud/index.ts'
import { LoginError } from '../login-error.ts'
import { forwardCallerIdentity } from './forward.ts'
import { Emulator } from '../../../../core/emulator.ts'
import type { RequestContext } from '../../../../core/glossary.ts'
import { SERVICE_PROFILE } from '../../../../core/profile.ts'
import { validateIamRequest, type IamClientSettings, type SignedCallerIdentityRequest } from './request-validation.ts'
import { parseCallerIdentityResponse } from './sts-response.ts'

const USER_XML = `<GetCallerIdentityResponse xmlns="https://sts.amazonaws.com/doc/2011-06-15/">
  <GetCallerIdentityResult>
    <Arn>arn:aws:iam::123456789012:user/MyUserName</Arn>
    <UserId>ASOMETHINGSOMETHINGSOMETHING</UserId>
    <Account>123456789012</Account>
  </GetCallerIdentityResult>
  <ResponseMetadata><RequestId>7f4fc40c-853a-11e6-8848-8d035d01eb87</RequestId></ResponseMetadata>
</GetCallerIdentityResponse>`

const context: RequestContext = { emulator: new Emulator(), profile: SERVICE_PROFILE, remoteAddress: '127.0.0.1' }

const signed: SignedCallerIdentityRequest = {
  method: 'POST',
  url: { host: 'sts.amazonaws.com', requestUri: '/', rawQuery: '' },
  body: 'Action=GetCallerIdentity&Version=2011-06-15',
  headers: { Authorization: ['AWS4-HMAC-SHA256 Credential=AKID/20240101/us-east-1/sts/aws4_request, SignedHeaders=host, Signature=00'], Host: ['evil.example'] },
  endpoint: 'https://sts.amazonaws.com',
  maxRetries: 2,
}

function answer(body: string, status = 200, contentType = 'text/xml') {
  const seen: Request[] = []
  const forward = async (request: Request) => {
    seen.push(request)
    return new Response(body, { status, headers: { 'Content-Type': contentType } })
  }
  return { forward, seen }
}

async function refusal(run: Promise<unknown>): Promise<string> {
  try {
    await run
  } catch (error) {
    if (error instanceof LoginError) return error.message
    throw error
  }
  throw new Error('expected a refusal')
}

describe('replaying the signed request to STS', () => {
  it('builds the request as the real service does: double slash, client host, copied headers', async () => {
    const { forward, seen } = answer(USER_XML)
    expect(await forwardCallerIdentity(context, signed, forward)).toEqual({
      arn: 'arn:aws:iam::123456789012:user/MyUserName',
      userId: 'ASOMETHINGSOMETHINGSOMETHING',
      account: '123456789012',
    })
    const request = seen[0]!
    expect(request.url).toBe('https://sts.amazonaws.com//')
    expect(request.method).toBe('POST')
    expect(request.headers.get('host')).toBe('sts.amazonaws.com')
    expect(request.headers.get('authorization')).toBe(signed.headers.Authorization![0])
    expect(request.headers.get('content-length')).toBe('43')
    expect(request.headers.get('content-type')).toBeNull()
    expect(await request.text()).toBe(signed.body)
  })

  it('requires Content-Type exactly text/xml, before looking at the status', async () => {
    expect(await refusal(forwardCallerIdentity(context, signed, answer(USER_XML, 200, 'text/xml; charset=utf-8').forward))).toBe(
      'error making upstream request: body of GetCallerIdentity is invalid',
    )
    expect(await refusal(forwardCallerIdentity(context, signed, answer('denied', 403, 'application/json').forward))).toBe(
      'error making upstream request: body of GetCallerIdentity is invalid',
    )
  })

  it('reports a non-200 status with the raw body', async () => {
    expect(await refusal(forwardCallerIdentity(context, signed, answer('<ErrorResponse/>', 403).forward))).toBe(
      'error making upstream request: received error code 403 from STS: <ErrorResponse/>',
    )
  })

  it('retries 5xx and 429, then gives up with the retrying client text', async () => {
    const { forward, seen } = answer('busy', 503)
    expect(await refusal(forwardCallerIdentity(context, signed, forward))).toBe(
      'error making upstream request: error making request: POST https://sts.amazonaws.com// giving up after 3 attempt(s)',
    )
    expect(seen).toHaveLength(3)
  })

  it('refuses bodies that are not a GetCallerIdentityResponse', async () => {
    for (const body of ['SomeRandomGibberish', '<Other/>', '<?xml version="1.0"?><GetCallerIdentityResponse></GetCallerIdentityResponse>']) {
      expect(await refusal(forwardCallerIdentity(context, signed, answer(body).forward))).toBe('error making upstream request: error parsing STS response')
    }
  })
})

describe('parsing GetCallerIdentity answers', () => {
  it('reads an assumed-role answer with a prolog and entities', () => {
    const xml = `<?xml version="1.0" encoding="UTF-8"?>
<GetCallerIdentityResponse xmlns="https://sts.amazonaws.com/doc/2011-06-15/"><GetCallerIdentityResult><Arn>arn:aws:sts::123456789012:assumed-role/RoleName/RoleSessionName</Arn><UserId>ASOMETHINGSOMETHINGELSE:RoleSessionName</UserId><Account>123456789012</Account></GetCallerIdentityResult></GetCallerIdentityResponse>`
    expect(parseCallerIdentityResponse(xml)).toEqual({
      arn: 'arn:aws:sts::123456789012:assumed-role/RoleName/RoleSessionName',
      userId: 'ASOMETHINGSOMETHINGELSE:RoleSessionName',
      account: '123456789012',
    })
    expect(parseCallerIdentityResponse(USER_XML.replace('MyUserName', 'a&amp;b'))?.arn).toBe('arn:aws:iam::123456789012:user/a&b')
  })

  it('never throws on arbitrary text', () => {
    fc.assert(fc.property(fc.string(), (text) => void parseCallerIdentityResponse(`<GetCallerIdentityResponse>${text}`)))
  })
})

describe('iam request validation', () => {
  const config: IamClientSettings = {
    sts_endpoint: '',
    max_retries: -1,
    use_sts_region_from_client: false,
    iam_server_id_header_value: 'doppel',
    allowed_sts_header_values: null,
  }

  it('reads the last SignedHeaders of a split Authorization header', () => {
    const request = validateIamRequest(
      {
        method: 'POST',
        url: Buffer.from('https://sts.amazonaws.com/').toString('base64'),
        body: Buffer.from('Action=GetCallerIdentity&Version=2011-06-15').toString('base64'),
        headers: {
          Authorization: ['AWS4-HMAC-SHA256 Credential=AKIDEXAMPLE/20150830/us-east-1/iam/aws4_request', 'SignedHeaders=content-type;host;x-amz-date;x-service-cloud-iam-server-id, Signature=5d'],
          'X-Service-Cloud-Iam-Server-Id': ['doppel'],
        },
      },
      config,
      'X-Service-Cloud-IAM-Server-ID',
    )
    expect(request).toMatchObject({ endpoint: 'https://sts.amazonaws.com', maxRetries: 3, url: { host: 'sts.amazonaws.com', requestUri: '/' } })
  })

  it('refuses GET requests whose query is not exactly one GetCallerIdentity action, with Vault 1.15+\'s texts', () => {
    const cases: [string, string][] = [
      ['', 'no action found in request'],
      ['Version=2011-06-15', 'no action found in request'],
      ['Action=GetCallerIdentity&Action=GetCallerIdentity', 'found multiple actions'],
      ['Action=GetSessionToken', 'unexpected action parameter, GetSessionToken'],
      // Go's URL.Query() drops a pair with a ';', so there is no action (as the real method answered)
      ['Action=GetCallerIdentity;GetSessionToken', 'no action found in request'],
      ['Action=GetCallerIdentity;&Version=2011-06-15', 'no action found in request'],
    ]
    for (const [query, message] of cases) {
      expect(() =>
        validateIamRequest(
          { method: 'GET', url: Buffer.from(`https://sts.amazonaws.com/?${query}`).toString('base64'), body: '', headers: { Host: ['x'] } },
          undefined,
          'X-Service-Cloud-IAM-Server-ID',
        ),
      ).toThrow(new LoginError(message))
    }
    // keys other than the action are STS's business, not the method's
    expect(() =>
      validateIamRequest(
        { method: 'GET', url: Buffer.from('https://sts.amazonaws.com/?Action=GetCallerIdentity&Foo=bar').toString('base64'), body: '', headers: { Host: ['x'] } },
        undefined,
        'X-Service-Cloud-IAM-Server-ID',
      ),
    ).not.toThrow()
  })

  it('throws nothing but refusals for arbitrary input', () => {
    const text = fc.oneof(fc.string(), fc.string().map((value) => Buffer.from(value).toString('base64')))
    fc.assert(
      fc.property(text, text, text, fc.dictionary(fc.string(), fc.array(fc.string(), { maxLength: 2 })), fc.constantFrom('POST', 'GET', '', 'PUT'), (url, body, extra, headers, method) => {
        try {
          validateIamRequest({ method, url, body, headers: { ...headers, Authorization: [extra] } }, config, 'X-Service-Cloud-IAM-Server-ID')
        } catch (error) {
          expect(error).toBeInstanceOf(LoginError)
        }
      }),
    )
  })
})

describe('the fake STS answering in process', () => {
  it('hands over the identity its XML was written from: exactly what parsing the XML gives back', () => {
    const text = fc.string({ unit: 'binary', maxLength: 40 })
    fc.assert(
      fc.property(fc.record({ arn: text, userId: text, account: text }), (identity) => {
        const xml = `<GetCallerIdentityResponse xmlns="https://sts.amazonaws.com/doc/2011-06-15/">\n  <GetCallerIdentityResult>${stsXml.getCallerIdentity(identity)}</GetCallerIdentityResult>\n  <ResponseMetadata><RequestId>r</RequestId></ResponseMetadata>\n</GetCallerIdentityResponse>\n`
        expect(parseCallerIdentityResponse(xml)).toEqual(identity)
      }),
      { numRuns: 300 },
    )
  })

  it('takes the handed-over identity, still checking the content type and status', async () => {
    const identity = { arn: 'arn:aws:iam::123456789012:user/Given', userId: 'AIDGIVEN', account: '123456789012' }
    const valued = (status: number, contentType: string) => async () => new LightResponse(USER_XML, { status, headers: { 'Content-Type': contentType }, value: identity })
    expect(await forwardCallerIdentity(context, signed, valued(200, 'text/xml'))).toEqual(identity)
    expect(await refusal(forwardCallerIdentity(context, signed, valued(200, 'application/xml')))).toContain('body of GetCallerIdentity is invalid')
    expect(await refusal(forwardCallerIdentity(context, signed, valued(403, 'text/xml')))).toContain('received error code 403 from STS')
  })
})
