import type { AnnotationEntity, Presence } from '@loopdesk/contracts/workbench-payloads.ts';
import {
  addEntity,
  clearEntities,
  removeEntitiesSharingExtract,
  restoreEntities,
  sameSpan,
} from '@loopdesk/workbench/entities.ts';
import {
  entityFromSelection,
  normaliseSelection,
  type TextSelection,
} from '@loopdesk/workbench/selection.ts';
import {
  useCallback,
  useEffect,
  useRef,
  useState,
  type Dispatch,
  type SetStateAction,
} from 'react';
import { typingIn } from '../utils/typing-in.ts';
import type { MessageSelection } from '../components/annotated-text.tsx';
import type { MenuAnchor } from '../components/hotkey-menu.tsx';

/** A selection waiting for its category in the hotkey menu. */
export interface PendingSelection {
  /** Bumped for each selection so that the menu opens anew on its first page. */
  readonly key: number;
  readonly selection: TextSelection;
  readonly anchor: MenuAnchor;
}

/**
 * The annotation flow of a panel (spec 1 §4): a selection that passes the workbench rules opens
 * the menu below it; a menu choice adds the entity (a boolean answer replaces the earlier answer
 * of the same span) and closes it; delete removes every entity with the highlight's extract;
 * Clear removes them all. Ctrl+Z (⌘Z) undoes a delete or Clear, the latest first (issue 20 "one
 * keyboard model"), unless the key is typed in a text field or a dialog. The handlers keep their
 * identity so the message is not drawn again.
 */
export function useAnnotationMenu(options: {
  text: string;
  entities: readonly AnnotationEntity[];
  setEntities: Dispatch<SetStateAction<AnnotationEntity[]>>;
  /** Whether a selection may open the menu (it has entries, the panel is not busy, …). */
  enabled: boolean;
}) {
  const { text, entities, setEntities, enabled } = options;
  const [pending, setPending] = useState<PendingSelection | null>(null);
  // What each delete or Clear removed, the latest last: Ctrl+Z puts it back.
  const removals = useRef<AnnotationEntity[][]>([]);
  const entitiesRef = useRef(entities);
  useEffect(() => {
    entitiesRef.current = entities;
  });

  const onSelect = useCallback(
    ({ span, rect }: MessageSelection) => {
      const result = normaliseSelection(text, span, entities);
      if (!result.ok || !enabled) {
        setPending(null);
        return;
      }
      setPending((current) => ({
        key: (current?.key ?? 0) + 1,
        selection: result.selection,
        anchor: { bottom: rect?.bottom ?? 0, left: rect?.left ?? 0, top: rect?.top ?? 0 },
      }));
    },
    [text, entities, enabled],
  );
  const close = useCallback(() => setPending(null), []);
  const onDelete = useCallback(
    (entity: AnnotationEntity) => {
      const current = entitiesRef.current;
      const kept = removeEntitiesSharingExtract(current, entity);
      const removed = current.filter((e) => !kept.includes(e));
      if (removed.length > 0) {
        removals.current.push(removed);
      }
      entitiesRef.current = kept;
      setEntities(kept);
    },
    [setEntities],
  );
  const undo = useCallback(() => {
    const removed = removals.current.pop();
    if (removed) {
      setEntities((current) => restoreEntities(current, removed));
    }
  }, [setEntities]);
  useEffect(() => {
    const onKeyDown = (event: KeyboardEvent) => {
      if (
        !(event.ctrlKey || event.metaKey) ||
        event.shiftKey ||
        event.altKey ||
        event.key.toLowerCase() !== 'z' ||
        event.defaultPrevented ||
        typingIn(event.target) ||
        (event.target instanceof Element && event.target.closest('[role="dialog"]'))
      ) {
        return;
      }
      event.preventDefault();
      undo();
    };
    document.addEventListener('keydown', onKeyDown);
    return () => document.removeEventListener('keydown', onKeyDown);
  }, [undo]);
  const annotate = (category: string, presence?: Presence) => {
    if (pending) {
      const entity = entityFromSelection(pending.selection, category);
      setEntities((current) =>
        presence === undefined
          ? addEntity(current, entity)
          : addEntity(
              current.filter((e) => !(e.category === category && sameSpan(e, entity))),
              { ...entity, presence },
            ),
      );
    }
    setPending(null);
    window.getSelection()?.removeAllRanges();
  };
  const clear = () => {
    if (entitiesRef.current.length > 0) {
      removals.current.push([...entitiesRef.current]);
    }
    entitiesRef.current = clearEntities();
    setEntities(clearEntities());
    setPending(null);
  };

  return { pending, onSelect, onDeselect: close, onDelete, annotate, close, clear, undo };
}
