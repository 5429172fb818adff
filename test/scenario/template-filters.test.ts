import { expect, it } from 'vitest'
import { render, parseExpression, TemplateError } from '../../src/faces/scenario/shared.ts'
it('applies | base64 and | urlencode after the fallbacks, and names unknown filters', () => {
  const scope = { vars: { tag: 'v1:abc:r=x', n: 5 }, steps: {}, target: {}, run: {}, env: {} } as never
  expect(render('${{ vars.tag | base64 }}', scope)).toBe(Buffer.from('v1:abc:r=x').toString('base64'))
  expect(render('/p/${{ vars.tag | base64 | urlencode }}', scope)).toBe('/p/' + encodeURIComponent(Buffer.from('v1:abc:r=x').toString('base64')))
  expect(render('${{ vars.missing || vars.tag | base64 }}', scope)).toBe(Buffer.from('v1:abc:r=x').toString('base64'))
  expect(() => parseExpression(' vars.tag | rot13 ')).toThrow('unknown filter "rot13" (filters: base64, urlencode)')
  expect(() => parseExpression(' vars.tag | ')).toThrow(TemplateError)
})
