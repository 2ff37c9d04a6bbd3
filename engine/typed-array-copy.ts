// A typed array in the readable copy of arguments that threw (canonical.ts). The serialiser writes
// a typed array's items in index order and its other keys after them, sorted; copied as a plain
// object, its keys would all be sorted ("0", "1", "10", "2"), so the same array would be written
// one way next to a getter that throws and another way without one.
import { defineProperty, objectCreate, objectKeys, typedArrayLength, typedArraySlice, typedArrayTag } from './intrinsics.ts'

/**
 * A typed array of the same kind with the same items, and its other keys as `read` gives them
 * (their values, or what they threw); undefined for a view that is no typed array (a DataView,
 * which the serialiser writes as an object).
 */
export function typedArrayCopy(view: ArrayBufferView, read: (name: string) => unknown): object | undefined {
  if (typedArrayTag(view) === undefined) return undefined
  const items = typedArraySlice(view)
  const names = objectKeys(view)
  // Object.keys lists a typed array's indices first, in order.
  for (let i = typedArrayLength(view); i < names.length; i++) {
    // Defined, not assigned: a key such as `length` has an accessor on the prototype.
    const member: PropertyDescriptor = objectCreate(null)
    member.value = read(names[i]!)
    member.enumerable = member.writable = member.configurable = true
    defineProperty(items, names[i]!, member)
  }
  return items
}
