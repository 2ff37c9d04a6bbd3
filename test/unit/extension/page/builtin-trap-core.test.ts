// The trap core both the unit and the end-to-end replaced-built-ins tests use
// (test/support/builtin-trap-core.ts): those tests pass on no hits, so the traps must note every
// call they stand for. Checked here on objects of the test's own, not the real built-ins.
import { describe, expect, it } from 'vitest'
import { trapBuiltins } from '../../../support/builtin-trap-core.ts'

describe('the built-in traps', () => {
  it('note each method, getter, instanceof, call and new they stand for, and still do what the original does', () => {
    // The test's own: trapped here, and by nothing else.
    class Thing {
      get size(): number {
        return 2
      }
      grow(by: number): number {
        return this.size + by
      }
      keep(): string {
        return 'kept'
      }
    }
    const hits: string[] = []
    const fixed = Object.defineProperty({}, 'stays', { value: () => 1, configurable: false })
    const world: { Thing: typeof Thing; Fixed: object } = { Thing, Fixed: fixed }
    const plan = {
      owners: ['Thing.prototype', 'Fixed'],
      withInstanceChecks: ['Thing'],
      globals: ['Thing'],
      global: world,
      spared: ['Thing.prototype.keep'],
    }
    const count = trapBuiltins(
      plan,
      (name) => void hits.push(name),
      (owner, key, descriptor) => void Object.defineProperty(owner, key, descriptor),
    )
    // grow, size, hasInstance, the global: not the constructor, the spared `keep`, or what cannot be replaced.
    expect(count).toBe(4)
    const thing = new world.Thing()
    expect([thing.grow(1), thing instanceof Thing, thing.keep()]).toEqual([3, true, 'kept'])
    expect(() => (world.Thing as unknown as () => void)()).toThrow(TypeError)
    expect(hits).toEqual(['new Thing', 'Thing.prototype.grow', 'Thing.prototype.size', 'Thing[Symbol.hasInstance]', 'Thing()'])
  })
})
