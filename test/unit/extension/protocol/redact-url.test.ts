import { describe, expect, test } from 'vitest'
import { REDACTED, redactUrl } from '../../../../extension/src/protocol/redact-url.ts'

describe('redactUrl: secrets never travel', () => {
  test('a Gemini key loses its value and keeps its name; other parameters keep their spelling', () => {
    const url = 'https://generativelanguage.googleapis.com/v1beta/models/gemini-2.5-flash:streamGenerateContent?alt=sse&key=AIzaSyA-secret'
    expect(redactUrl(url)).toBe(`https://generativelanguage.googleapis.com/v1beta/models/gemini-2.5-flash:streamGenerateContent?alt=sse&key=${REDACTED}`)
  })

  test.each([
    'key',
    'KEY',
    'api_key',
    'apikey',
    'Api-Key',
    'token',
    'access_token',
    'refresh_token',
    'id_token',
    'auth',
    'authorization',
    'sig',
    'signature',
    'secret',
    'client_secret',
    'password',
    'pwd',
    'session',
    'sessionid',
    'code',
    'X-Amz-Signature',
    'x-goog-signature',
    'X-Amz-Security-Token',
    'goog_api_key',
    'x-auth-token',
    'upload.signature',
    'api%5Fkey',
    'user_session_id',
  ])('%s is a secret name', (name) => {
    expect(redactUrl(`https://h.example/p?${name}=s3cr3t&q=1`)).toBe(`https://h.example/p?${name}=${REDACTED}&q=1`)
  })

  // The same names in any spelling (camelCase, kebab-case, snake_case, upper case), and the
  // names bearer tokens, OAuth assertions and signed URLs use.
  test.each([
    'accessToken',
    'authToken',
    'refreshToken',
    'sessionToken',
    'googleApiKey',
    'idToken',
    'clientSecret',
    'sessionId',
    'apiKey',
    'APIKey',
    'access-token',
    'auth-token',
    'google-api-key',
    'auth_token',
    'session_token',
    'GOOGLE_API_KEY',
    'XAmzSignature',
    'xGoogCredential',
    'jwt',
    'bearer',
    'ticket',
    'assertion',
    'client_assertion',
    'clientAssertion',
    'Policy',
    'jsessionid',
    'Signature',
    'X-Amz-Signature',
    'X-Amz-Credential',
    'X-Amz-Security-Token',
    'X-Goog-Signature',
    'X-Goog-Credential',
    'sig',
  ])('%s, in another spelling or a signed URL, is a secret name', (name) => {
    expect(redactUrl(`https://h.example/p?${name}=s3cr3t&q=1`)).toBe(`https://h.example/p?${name}=${REDACTED}&q=1`)
  })

  test.each(['q', 'monkey', 'keyboard', 'page', 'codec', 'model', 'alt', 'tokens_used', 'maxTokens', 'country_code', 'keyId', 'tokenCount', 'hotkey'])('%s is not', (name) => {
    expect(redactUrl(`https://h.example/p?${name}=visible`)).toBe(`https://h.example/p?${name}=visible`)
  })

  test('a fragment that is not a route goes, whatever it holds', () => {
    expect(redactUrl('https://app.example/cb?state=1#access_token=abc&expires_in=3600')).toBe('https://app.example/cb?state=1')
    expect(redactUrl('https://app.example/#')).toBe('https://app.example/')
    expect(redactUrl('about:blank#frag')).toBe('about:blank')
    expect(redactUrl('https://app.example/share#9MeqPJY7AKd7VU8bBnnmvugmnWx9dmUCJ9ciGV2Q2Dv9')).toBe('https://app.example/share')
  })

  test('a token as the user name, or a user name and password, goes', () => {
    expect(redactUrl('https://ghp_abc123@github.example/o/r.git')).toBe(`https://${REDACTED}@github.example/o/r.git`)
    expect(redactUrl('https://me:hunter2@proxy.example/v1')).toBe(`https://${REDACTED}:${REDACTED}@proxy.example/v1`)
    expect(redactUrl('https://:hunter2@proxy.example/v1')).toBe(`https://:${REDACTED}@proxy.example/v1`)
  })

  test('tokens in paths: a Telegram bot, Slack and Discord webhooks, a jsessionid path parameter', () => {
    expect(redactUrl('https://api.telegram.org/bot123456789:AAHdqTcvCH1vGWJxfSeofSAs0K5PALDsaw/sendMessage?chat_id=1')).toBe(`https://api.telegram.org/bot${REDACTED}/sendMessage?chat_id=1`)
    expect(redactUrl('https://api.telegram.org/file/bot42%3Asecret/photo.jpg')).toBe(`https://api.telegram.org/file/bot${REDACTED}/photo.jpg`)
    expect(redactUrl('https://hooks.slack.com/services/T00000000/B00000000/XXXXXXXXXXXXXXXXXXXXXXXX')).toBe(`https://hooks.slack.com/services/${REDACTED}/${REDACTED}/${REDACTED}`)
    expect(redactUrl('https://discord.com/api/webhooks/1234567/secret-token')).toBe(`https://discord.com/api/webhooks/1234567/${REDACTED}`)
    expect(redactUrl('https://shop.example/cart;jsessionid=0A1B2C3D?x=1')).toBe(`https://shop.example/cart;jsessionid=${REDACTED}?x=1`)
    expect(redactUrl('https://shop.example/cart;JSESSIONID=0A1B2C3D;v=2')).toBe(`https://shop.example/cart;JSESSIONID=${REDACTED};v=2`)
  })

  test('a path segment that looks like a key goes; words, hex ids, UUIDs and model names stay', () => {
    expect(redactUrl('https://eth-mainnet.example/v2/aB3dE5fG7hJ9kL1mN3pQ5rS7/blocks')).toBe(`https://eth-mainnet.example/v2/${REDACTED}/blocks`)
    const jwt = 'eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.dozjgNryP4J3jVmNHl0w5N_XgL0n3I9PlFUP0THsR8U'
    expect(redactUrl(`https://app.example/magic/${jwt}`)).toBe(`https://app.example/magic/${REDACTED}.${REDACTED}.${REDACTED}`)
    for (const kept of [
      'https://h.example/v1/responses/resp_68af0c3e2b1c8190a2f4e5d6c7b8a9f0',
      'https://h.example/items/123e4567-e89b-12d3-a456-426614174000',
      'https://h.example/v1beta/models/gemini-2.5-flash:streamGenerateContent',
      'https://h.example/commit/9fceb02d0ae598e95dc970b74767f19372d61af8',
      'https://h.example/docs/getting-started-with-agents',
    ])
      expect(redactUrl(kept)).toBe(kept)
  })

  test('a route in the fragment stays, read as a path, and every value of its parameters goes', () => {
    expect(redactUrl('https://app.example/#/chat/42?token=abc&tab=2')).toBe(`https://app.example/#/chat/42?token=${REDACTED}&tab=${REDACTED}`)
    expect(redactUrl('https://app.example/#!/send/aB3dE5fG7hJ9kL1mN3pQ5rS7')).toBe(`https://app.example/#!/send/${REDACTED}`)
    expect(redactUrl('https://app.example/#/bot123:AAH/x')).toBe(`https://app.example/#/bot${REDACTED}/x`)
  })

  test('redacting twice changes nothing more', () => {
    for (const url of ['https://me:pw@h.example/bot1:x/aB3dE5fG7hJ9kL1mN3pQ5rS7;jsessionid=1?accessToken=2#/r?a=1', 'https://hooks.slack.com/services/T0/B0/X']) {
      const once = redactUrl(url)
      expect(redactUrl(once)).toBe(once)
    }
  })

  test('unusual queries: names without values, empty values, repeats, escapes the URL API would respell', () => {
    expect(redactUrl('https://h.example/?key&token=&a=b%20c+d&key=2')).toBe(`https://h.example/?key&token=${REDACTED}&a=b%20c+d&key=${REDACTED}`)
    expect(redactUrl('https://h.example/?%zz=1&key=%zz')).toBe(`https://h.example/?%zz=1&key=${REDACTED}`)
  })

  test('a URL the URL API cannot parse never throws: everything from its ? or # is cut', () => {
    expect(redactUrl('/v1/models?key=abc')).toBe('/v1/models')
    expect(redactUrl('/bot42:secret/getMe?x=1')).toBe(`/bot${REDACTED}/getMe`)
    expect(redactUrl('https://user:pw@[bad/x?key=1')).toBe('https://[bad/x')
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
