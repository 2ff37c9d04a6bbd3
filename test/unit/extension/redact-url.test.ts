import { describe, expect, test } from 'vitest'
import { REDACTED, redactUrl } from '../../../extension/src/protocol/redact-url.ts'

describe('redactUrl: secrets never travel', () => {
  test('a Gemini key loses its value and keeps its name; other parameters keep their spelling', () => {
    const url = 'https://generativelanguage.googleapis.com/v1beta/models/gemini-2.5-flash:streamGenerateContent?alt=sse&key=AIzaSyA-secret'
    expect(redactUrl(url)).toBe(`https://generativelanguage.googleapis.com/v1beta/models/gemini-2.5-flash:streamGenerateContent?alt=sse&key=${REDACTED}`)
  })

  test.each([
    'key', 'KEY', 'api_key', 'apikey', 'Api-Key', 'token', 'access_token', 'refresh_token', 'id_token', 'auth', 'authorization',
    'sig', 'signature', 'secret', 'client_secret', 'password', 'pwd', 'session', 'sessionid', 'code', 'X-Amz-Signature',
    'x-goog-signature', 'X-Amz-Security-Token', 'goog_api_key', 'x-auth-token', 'upload.signature', 'api%5Fkey', 'user_session_id',
  ])('%s is a secret name', (name) => {
    expect(redactUrl(`https://h.example/p?${name}=s3cr3t&q=1`)).toBe(`https://h.example/p?${name}=${REDACTED}&q=1`)
  })

  test.each(['q', 'monkey', 'keyboard', 'page', 'codec', 'model', 'alt', 'tokens_used'])('%s is not', (name) => {
    expect(redactUrl(`https://h.example/p?${name}=visible`)).toBe(`https://h.example/p?${name}=visible`)
  })

  test('the fragment goes, whatever it holds; so does a password in the user info', () => {
    expect(redactUrl('https://app.example/cb?state=1#access_token=abc&expires_in=3600')).toBe('https://app.example/cb?state=1')
    expect(redactUrl('https://app.example/#')).toBe('https://app.example/')
    expect(redactUrl('about:blank#frag')).toBe('about:blank')
    expect(redactUrl('https://me:hunter2@proxy.example/v1')).toBe(`https://me:${REDACTED}@proxy.example/v1`)
  })

  test('unusual queries: names without values, empty values, repeats, escapes the URL API would respell', () => {
    expect(redactUrl('https://h.example/?key&token=&a=b%20c+d&key=2')).toBe(`https://h.example/?key&token=${REDACTED}&a=b%20c+d&key=${REDACTED}`)
    expect(redactUrl('https://h.example/?%zz=1&key=%zz')).toBe(`https://h.example/?%zz=1&key=${REDACTED}`)
  })

  test('a URL the URL API cannot parse never throws: everything from its ? or # is cut', () => {
    expect(redactUrl('/v1/models?key=abc')).toBe('/v1/models')
    expect(redactUrl('not a url#token=1')).toBe('not a url')
    expect(redactUrl('http://[bad/?key=1')).toBe('http://[bad/')
    expect(redactUrl('')).toBe('')
    expect(redactUrl('plain')).toBe('plain')
  })

  test('other schemes, and a URL already redacted stays as it is', () => {
    expect(redactUrl('file:///home/me/agent.html?token=1#x')).toBe(`file:///home/me/agent.html?token=${REDACTED}`)
    expect(redactUrl('blob:https://a.example/3f2a#x')).toBe('blob:https://a.example/3f2a')
    const once = redactUrl('https://h.example/?key=1#f')
    expect(redactUrl(once)).toBe(once)
  })
})
