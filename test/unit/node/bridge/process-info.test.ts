// What the panel shows of a process (node/bridge/process-info.ts): its title, or its script's name
// when the title names only Node, however Node was started.
import { describe, expect, it } from 'vitest'
import { processInfo } from '../../../../node/bridge/process-info.ts'

const started = (title: string, argv: string[]) => processInfo({ pid: 7, version: 'v20.19.0', title, argv })

describe('the process as the panel names it', () => {
  it('takes the script’s name when the title is only Node, by name or by path', () => {
    for (const title of ['node', '/usr/bin/node', 'C:/Program Files/nodejs/node.exe']) {
      expect(started(title, [title, '/srv/app/server.js'])).toEqual({ pid: 7, node: 'v20.19.0', title: 'server.js' })
    }
  })

  it('keeps a title the app chose, and Node’s when there is no script', () => {
    expect(started('my-api', ['/usr/bin/node', '/srv/app/server.js']).title).toBe('my-api')
    expect(started('/usr/bin/node', ['/usr/bin/node']).title).toBe('/usr/bin/node')
    expect(started('nodemon', ['/usr/bin/node', '/srv/app/server.js']).title).toBe('nodemon')
  })
})
