import './virtual-list.css'
import type { ComponentChild, HTMLAttributes } from 'preact'
import { useEffect, useLayoutEffect, useRef, useState } from 'preact/hooks'
import { HeightIndex } from './height-index.ts'

interface VirtualListProps {
  /** The rows are [start, end), by absolute index; a new `epoch` means every index changed meaning. */
  readonly epoch: number
  readonly start: number
  readonly end: number
  /** Height to assume for a row until it has been rendered and measured. */
  readonly estimate: (row: number) => number
  /**
   * True for a row whose height the stylesheet fixes at its estimate: it is never measured, so a
   * frame that adds only such rows reads no layout back.
   */
  readonly fixed?: (row: number) => boolean
  readonly renderRow: (row: number) => ComponentChild
  /** Keep the newest row in view while the user is at the bottom (a live log). */
  readonly follow?: boolean
  readonly label: string
  readonly testId?: string
  /** The container's role: `list` unless the caller gives it one (`listbox`, or none inside a tree). */
  readonly role?: 'list' | 'listbox' | 'none'
  /** Attributes of a row's wrapper (its role, id and ARIA state); a `listitem` unless given. */
  readonly rowAttributes?: (row: number) => HTMLAttributes<HTMLDivElement>
  /** The row the keyboard is on: scrolled into view, and so drawn, whenever it changes. */
  readonly active?: number
  /** More attributes for the container (focus, keys, the active descendant). */
  readonly containerAttributes?: HTMLAttributes<HTMLDivElement>
}

/** Pixels rendered beyond the viewport on each side, so fast scrolling shows no gaps. */
const OVERSCAN = 160
/**
 * Pinned to the live end there is nothing below to scroll to, and every new batch replaces the
 * rows in view: drawing a full overscan above would be rebuilt on each batch. One wheel step's
 * worth is kept, and the full overscan comes back as soon as the user scrolls up.
 */
const FOLLOW_OVERSCAN = 100
/** Used until the container has been laid out (and in environments without layout). */
const FALLBACK_VIEWPORT = 600

/**
 * A list that renders only the rows in and near the viewport. Row heights are estimated, then
 * measured once rendered, so rows may wrap and expand freely.
 */
export function VirtualList(props: VirtualListProps) {
  const { epoch, start, end, estimate, fixed, renderRow, follow = false, active, rowAttributes } = props
  const container = useRef<HTMLDivElement>(null)
  const spaceRef = useRef<HTMLDivElement>(null)
  const windowRef = useRef<HTMLDivElement>(null)
  const heights = useRef<{ epoch: number; index: HeightIndex } | null>(null)
  const droppedHeight = useRef(0)
  const atBottom = useRef(true)
  /** The scroll height the list had before this render's rows were added. */
  const drawnTotal = useRef(0)
  const [scrollTop, setScrollTop] = useState(0)
  const [viewport, setViewport] = useState(FALLBACK_VIEWPORT)
  const [, setMeasured] = useState(0)
  const revealed = useRef<number | undefined>(undefined)

  // Bring the height index up to the rows: O(rows added or dropped) per render.
  if (heights.current?.epoch !== epoch) {
    heights.current = { epoch, index: new HeightIndex(start) }
    droppedHeight.current = 0
    // Other rows (another agent, a new filter): a live list starts again from its newest row.
    if (follow) atBottom.current = true
  }
  let index = heights.current.index
  if (index.start < start) {
    droppedHeight.current += index.dropBefore(start)
    // Every row it held fell off, and rows after them too (a batch larger than the list): the
    // index starts again at the first live row rather than at rows that no longer exist.
    if (index.end < start) index = heights.current.index = new HeightIndex(start)
  }
  if (index.end < end) {
    const from = index.end
    index.pushEach(end - from, (i) => estimate(from + i))
  }

  const total = index.total()
  // Following: draw the bottom now rather than a frame later, after the scroll event.
  const settled = follow && atBottom.current ? Math.max(0, total - viewport) : scrollTop
  // The keyboard moved to another row: draw from where it is in view, now, rather than after a scroll.
  const reveal = active !== undefined && active !== revealed.current && active >= start && active < end
  const top = reveal ? inView(settled, index.offset(active), index.size(active), viewport) : settled
  if (reveal && top < settled) atBottom.current = false
  const following = follow && atBottom.current
  const first = index.rowAt(Math.max(0, top - (following ? FOLLOW_OVERSCAN : OVERSCAN))) ?? start
  const last = Math.min(end - 1, index.rowAt(top + viewport + OVERSCAN) ?? start)
  const drawnFrom = Math.max(first, start)
  const rows: ComponentChild[] = []
  // Keyed by row, a scrolled list keeps every row it still shows. Pinned to the live end, each
  // batch brings rows that replace all those in view: keyed by slot, they are drawn into the
  // elements already there instead of into new ones.
  for (let row = drawnFrom; row <= last; row++)
    rows.push(
      <div key={following ? row - first : row} class="rtg-vrow" role="listitem" {...rowAttributes?.(row)} data-row={row}>
        {renderRow(row)}
      </div>,
    )

  // The list's geometry (its scroll height, where the drawn rows sit) is written here, not
  // rendered: a row measured at another height than assumed then moves the rows after it without
  // drawing the list again, unless the drawn rows no longer cover the viewport.
  useLayoutEffect(() => {
    const box = container.current
    const space = spaceRef.current
    const win = windowRef.current
    if (!box || !space || !win) return
    let changed = false
    for (const child of Array.from(win.children) as HTMLElement[]) {
      const row = Number(child.dataset.row)
      // A row that was measured while it was taller (an expanded call) goes back to its estimate.
      const height = fixed?.(row) ? estimate(row) : child.offsetHeight
      if (height > 0 && Math.abs(height - index.size(row)) > 0.5) {
        index.set(row, height)
        changed = true
      }
    }
    const total = index.total()
    // A reader who reached the end as new rows came in, before the scroll event could say so,
    // follows them: without this the rows would grow the list under the scroll position first.
    // (Not when the keyboard just moved up: the scroll position is still the old one.)
    const caughtUp = follow && !following && !reveal && box.scrollTop + box.clientHeight >= drawnTotal.current - 4
    if (caughtUp) atBottom.current = true
    drawnTotal.current = total
    if (reveal) revealed.current = active
    space.style.height = `${total}px`
    win.style.transform = `translateY(${index.offset(drawnFrom)}px)`
    if (following || caughtUp) {
      // Past the end is clamped to the bottom, so nothing needs reading back to find it.
      box.scrollTop = total
    } else if (reveal) {
      box.scrollTop = top
      if (top !== scrollTop) setScrollTop(top)
    } else if (droppedHeight.current > 0) {
      // Rows fell off the top: move up by their height so what the user reads stays put.
      box.scrollTop = Math.max(0, box.scrollTop - droppedHeight.current)
    }
    droppedHeight.current = 0
    // Caught up: the rows drawn are those the reader scrolled to, not the newest.
    if (caughtUp) {
      setMeasured((n) => n + 1)
      return
    }
    if (!changed) return
    const shownFrom = following ? Math.max(0, total - viewport) : scrollTop
    const covered = index.offset(drawnFrom) <= shownFrom && index.offset(last + 1) >= Math.min(total, shownFrom + viewport)
    if (!covered) setMeasured((n) => n + 1)
  })

  useEffect(() => {
    const box = container.current
    if (!box) return
    const update = () => setViewport(box.clientHeight || FALLBACK_VIEWPORT)
    update()
    if (typeof ResizeObserver === 'undefined') return
    const observer = new ResizeObserver(update)
    observer.observe(box)
    return () => observer.disconnect()
  }, [])

  const onScroll = () => {
    const box = container.current
    if (!box) return
    const wasFollowing = follow && atBottom.current
    atBottom.current = box.scrollTop + box.clientHeight >= box.scrollHeight - 4
    // Still pinned to the end (the scroll the list made itself to follow a batch): the rows drawn
    // do not depend on the scroll position, so there is nothing to draw again.
    if (wasFollowing && atBottom.current) return
    setScrollTop(box.scrollTop)
  }

  return (
    <div ref={container} class="rtg-vlist" role={props.role ?? 'list'} aria-label={props.label} data-testid={props.testId} onScroll={onScroll} {...props.containerAttributes}>
      <div ref={spaceRef} class="rtg-vlist-space">
        <div ref={windowRef} class="rtg-vlist-window">
          {rows}
        </div>
      </div>
    </div>
  )
}

/** The scroll position nearest `top` that shows the whole row at `offset` (`size` high). */
function inView(top: number, offset: number, size: number, viewport: number): number {
  if (offset < top) return offset
  if (offset + size > top + viewport) return Math.max(0, offset + size - viewport)
  return top
}
