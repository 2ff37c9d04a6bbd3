// Re-renders a component when a source it shows reports a change, at most once per task: an
// agent step reports several changes in a row.
import { useEffect, useState } from 'preact/hooks'

export function useChanges(subscribe: ((listener: () => void) => () => void) | undefined): void {
  const [, setTick] = useState(0)
  useEffect(() => {
    if (!subscribe) return undefined
    let timer: ReturnType<typeof setTimeout> | undefined
    const unsubscribe = subscribe(() => {
      timer ??= setTimeout(() => {
        timer = undefined
        setTick((t) => t + 1)
      }, 0)
    })
    return () => {
      unsubscribe()
      clearTimeout(timer)
    }
  }, [subscribe])
}
