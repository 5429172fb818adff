import { describe, expect, it } from 'vitest'
import { createDoppel } from '../../src/features/doppel/index.ts'
import { FAKE_CLOUD_URL, isFakeCloudHost, isInProcessEndpoint, regionalStsRegion } from '../../src/services/fake-cloud/index.ts'
import { iamSigning } from '../../src/faces/record/index.ts'

describe('the fake cloud host rules', () => {
  it('admit the metadata addresses and AWS names, with or without a port, and nothing else', () => {
    for (const host of ['169.254.169.254', '[fd00:ec2::254]:80', 'sts.amazonaws.com', 'STS.us-west-2.amazonaws.com:443', 'ec2.cn-north-1.amazonaws.com.cn']) {
      expect(isFakeCloudHost(host), host).toBe(true)
    }
    for (const host of ['localhost', 'amazonaws.com.evil.test', 'sts.amazonaws.com.', '169.254.169.2540', 'x.amazonaws.co']) {
      expect(isFakeCloudHost(host), host).toBe(false)
    }
  })

  it('match the same names as MSW URLs and as in-process endpoint overrides', () => {
    expect(FAKE_CLOUD_URL.test('https://iam.amazonaws.com/?Action=GetUser')).toBe(true)
    expect(FAKE_CLOUD_URL.test('http://169.254.169.254:80/latest/meta-data/')).toBe(true)
    expect(FAKE_CLOUD_URL.test('https://amazonaws.com.evil.test/')).toBe(false)
    const doppel = createDoppel()
    expect(isInProcessEndpoint(doppel, 'https://sts.eu-west-1.amazonaws.com')).toBe(true)
    expect(isInProcessEndpoint(doppel, 'https://sts.example.test')).toBe(false)
  })

  it('read the region of a regional STS name only, for doppel record too', () => {
    expect(regionalStsRegion('sts.eu-west-1.amazonaws.com')).toBe('eu-west-1')
    expect(regionalStsRegion('sts.amazonaws.com')).toBeUndefined()
    const body = (url: string) => ({
      iam_request_url: Buffer.from(url).toString('base64'),
      iam_request_headers: Buffer.from(JSON.stringify({ Authorization: ['AWS4-HMAC-SHA256 Credential=AKIAEXAMPLE/20240101/x/sts/aws4_request'] })).toString('base64'),
    })
    expect(iamSigning(body('https://sts.ap-south-1.amazonaws.com/'))?.region).toBe('ap-south-1')
    expect(iamSigning(body('https://sts.amazonaws.com/'))).not.toHaveProperty('region')
  })
})
