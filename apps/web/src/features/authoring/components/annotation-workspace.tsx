import Box from '@mui/material/Box';
import { isCaretKey, moveCaret } from '@loopdesk/workbench/selection.ts';
import { useCallback, useLayoutEffect, useMemo, useRef, useState, type KeyboardEvent } from 'react';
import { ConfirmDialog } from '../../../components/confirm-dialog.tsx';
import { ShortcutsDialog } from '../../../components/shortcuts-dialog.tsx';
import { useToast } from '../../../components/toast-context.ts';
import { HotkeyMenu, type MenuAnchor } from '../../../workbench/components/hotkey-menu.tsx';
import {
  CATEGORIES,
  MESSAGES,
  addManual,
  annotate,
  checkSelection,
  entityAt,
  firstEndingAfter,
  removeEntity,
  setWeight,
  type AnnotationState,
  type EntityData,
} from '../model/annotations.ts';
import { splitBlocks } from '../model/blocks.ts';
import { DocumentText, type DocumentTextHandle, type TextCursor } from './document-text.tsx';
import { EntityEditor } from './entity-editor.tsx';
import { EntityTable } from './entity-table.tsx';
import { DOCUMENT_SHORTCUTS } from './shortcuts.ts';

const MENU_ENTRIES = CATEGORIES.map((label) => ({ label }));

/** Whether a CUI is the document’s own concept (a relationship to itself links nothing). */
const isDocumentConcept = (
  cui: string,
  concept: { cui: string; conceptId: string | null } | null,
) => cui !== '' && concept !== null && (cui === concept.cui || cui === concept.conceptId);

export interface AnnotationWorkspaceProps {
  text: string;
  value: AnnotationState;
  onChange: (next: AnnotationState) => void;
  /** Drawn above the text (the recognition checkbox and the legend). */
  toolbar?: React.ReactNode;
  /** Height of the text and of the table. */
  height?: number | string;
  /** The document's concept (its CUI and knowledge-base id, its name): relationships link to it. */
  documentConcept?: { cui: string; conceptId: string | null; display: string } | null;
}

type Menu = { start: number; end: number; anchor: MenuAnchor } | null;

/**
 * The two halves of the Annotation Task screen (spec 2 §2): the text with its chips on the left
 * and the table of annotated entities on the right, with the category menu, the edit popover
 * and the delete confirmation. Keyboard first (issue 13 item 3), every action also by mouse.
 */
export function AnnotationWorkspace({
  text,
  value,
  onChange,
  toolbar,
  height = '65vh',
  documentConcept = null,
}: AnnotationWorkspaceProps) {
  const toast = useToast();
  const blocks = useMemo(() => splitBlocks(text), [text]);
  const view = useRef<DocumentTextHandle>(null);
  const [cursor, setCursor] = useState<TextCursor>({ caret: 0, anchor: null });
  const [menu, setMenu] = useState<Menu>(null);
  const [editing, setEditing] = useState<{ id: string; anchor: HTMLElement | null } | null>(null);
  /** Opens the edit popover at the entity's chip (in an event handler, where refs may be read). */
  const openEditor = useCallback((id: string) => {
    setEditing({ id, anchor: view.current?.chipOf(id) ?? null });
  }, []);
  const [deleting, setDeleting] = useState<string | null>(null);
  const [help, setHelp] = useState(false);
  // The latest state, for handlers that must not be rebuilt on every change (the table's rows).
  const latest = useRef({ value, onChange });
  useLayoutEffect(() => {
    latest.current = { value, onChange };
  });

  const focused = cursor.anchor === null ? entityAt(value.entities, cursor.caret) : undefined;

  const openMenu = useCallback(
    (start: number, end: number, anchor?: MenuAnchor) => {
      const outcome = checkSelection(text, value.entities, start, end);
      if (outcome.kind === 'ignored') {
        return;
      }
      if (outcome.kind === 'exists') {
        toast.error(MESSAGES.exists);
        return;
      }
      const rect = anchor ?? view.current?.selectionRect() ?? { top: 100, bottom: 120, left: 100 };
      setMenu({ start: outcome.start, end: outcome.end, anchor: rect });
    },
    [text, value.entities, toast],
  );

  const chooseCategory = (category: string) => {
    if (!menu) {
      return;
    }
    const outcome = checkSelection(text, value.entities, menu.start, menu.end);
    setMenu(null);
    if (outcome.kind === 'exists') {
      toast.error(MESSAGES.exists);
      return;
    }
    if (outcome.kind === 'ok') {
      const { state } = addManual(value, text, outcome.start, outcome.end, category);
      onChange(state);
      setCursor({ caret: outcome.start, anchor: null });
      window.getSelection()?.removeAllRanges();
    }
    view.current?.focus();
  };

  const moveTo = (caret: number) => {
    setCursor({ caret, anchor: null });
    view.current?.scrollToOffset(caret);
  };

  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    if (menu) {
      return; // the menu reads its keys on the document
    }
    const { key } = event;
    if (isCaretKey(key)) {
      event.preventDefault();
      const caret = moveCaret(
        text,
        cursor.caret,
        key,
        event.ctrlKey || event.altKey || event.metaKey,
      );
      const anchor = event.shiftKey ? (cursor.anchor ?? cursor.caret) : null;
      setCursor({ caret, anchor: anchor === caret ? null : anchor });
      view.current?.scrollToOffset(caret);
      return;
    }
    if (event.ctrlKey || event.altKey || event.metaKey) {
      return;
    }
    switch (key) {
      case 'Enter': {
        event.preventDefault();
        if (cursor.anchor !== null) {
          openMenu(cursor.anchor, cursor.caret);
        } else if (focused) {
          openEditor(focused.data.id);
        }
        return;
      }
      case 'n':
      case 'N':
      case 'p':
      case 'P': {
        event.preventDefault();
        const entities = value.entities;
        if (entities.length === 0) {
          return;
        }
        const forward = key.toLowerCase() === 'n';
        const here = firstEndingAfter(entities, cursor.caret);
        const current = entities[here];
        const inside = current && current.data.start <= cursor.caret;
        const index = forward ? (inside ? here + 1 : here) : (inside ? here : here) - 1;
        const target = entities[Math.min(Math.max(index, 0), entities.length - 1)];
        if (target) {
          moveTo(target.data.start);
        }
        return;
      }
      case 'Delete':
      case 'Backspace': {
        if (focused) {
          event.preventDefault();
          setDeleting(focused.data.id);
        }
        return;
      }
      case 'Escape': {
        if (cursor.anchor !== null) {
          event.preventDefault();
          setCursor({ caret: cursor.caret, anchor: null });
        }
        return;
      }
      case '?': {
        event.preventDefault();
        setHelp(true);
        return;
      }
      default:
        return;
    }
  };

  const onKeyUp = (event: KeyboardEvent<HTMLDivElement>) => {
    // Spec 1 §4 keyboard annotation, as the federated workbench: letting go of Shift with a
    // selection opens the category menu.
    if (event.key === 'Shift' && cursor.anchor !== null && !menu) {
      openMenu(cursor.anchor, cursor.caret);
    }
  };

  const onMouseSelect = useCallback(
    (start: number, end: number) => {
      if (start === end) {
        setCursor({ caret: start, anchor: null });
        return;
      }
      setCursor({ caret: end, anchor: start });
      const range = window.getSelection()?.getRangeAt(0).getBoundingClientRect();
      openMenu(
        start,
        end,
        range ? { top: range.top, bottom: range.bottom, left: range.left } : undefined,
      );
    },
    [openMenu],
  );

  const onChipClick = useCallback((id: string) => {
    const entity = latest.current.value.entities.find((e) => e.data.id === id);
    if (entity) {
      setCursor({ caret: entity.data.start, anchor: null });
    }
  }, []);
  const onChipDoubleClick = openEditor;
  const onWeight = useCallback((id: string, weight: string) => {
    latest.current.onChange(setWeight(latest.current.value, id, weight));
  }, []);
  const onDeleteRow = useCallback((id: string) => setDeleting(id), []);
  const onOpenRow = useCallback(
    (id: string) => {
      const entity = latest.current.value.entities.find((e) => e.data.id === id);
      if (entity) {
        setCursor({ caret: entity.data.start, anchor: null });
        view.current?.scrollToOffset(entity.data.start);
        openEditor(id);
      }
    },
    [openEditor],
  );

  const edited = editing ? value.entities.find((e) => e.data.id === editing.id) : undefined;
  const closeEditor = () => {
    setEditing(null);
    view.current?.focus();
  };
  const save = (data: EntityData, link: boolean) => {
    onChange(annotate(value, data, link));
    closeEditor();
  };
  const confirmDelete = () => {
    if (deleting) {
      onChange(removeEntity(value, deleting));
    }
    setDeleting(null);
    setEditing(null);
    view.current?.focus();
  };

  return (
    <Box sx={{ display: 'grid', gridTemplateColumns: { md: '3fr 2fr' }, gap: 2 }}>
      <Box>
        {toolbar}
        <DocumentText
          ref={view}
          text={text}
          blocks={blocks}
          entities={value.entities}
          cursor={cursor}
          focusedId={focused?.data.id ?? null}
          onKeyDown={onKeyDown}
          onKeyUp={onKeyUp}
          onMouseSelect={onMouseSelect}
          onChipClick={onChipClick}
          onChipDoubleClick={onChipDoubleClick}
          height={height}
          label="Document text. Select with Shift and the arrow keys; press ? for the keys."
        />
      </Box>
      <EntityTable
        rows={value.relationships}
        onWeight={onWeight}
        onDelete={onDeleteRow}
        onOpen={onOpenRow}
        height={height}
      />
      {menu ? (
        <HotkeyMenu
          entries={MENU_ENTRIES}
          anchor={menu.anchor}
          label="Categories"
          onAnnotate={chooseCategory}
          onClose={() => {
            setMenu(null);
            view.current?.focus();
          }}
        />
      ) : null}
      {edited ? (
        <EntityEditor
          key={edited.data.id}
          data={edited.data}
          anchorEl={editing?.anchor ?? null}
          onSave={save}
          documentConcept={documentConcept?.display ?? 'the document’s concept'}
          linked={
            value.relationships.some((r) => r.id === edited.data.id) ||
            (edited.state !== 'annotated' && !isDocumentConcept(edited.data.CUI, documentConcept))
          }
          onDelete={() => setDeleting(edited.data.id)}
          onClose={closeEditor}
        />
      ) : null}
      <ConfirmDialog
        open={deleting !== null}
        title="Delete annotation"
        message={MESSAGES.confirmDelete}
        confirmLabel="Delete"
        onConfirm={confirmDelete}
        onCancel={() => setDeleting(null)}
      />
      <ShortcutsDialog
        open={help}
        shortcuts={DOCUMENT_SHORTCUTS}
        onClose={() => {
          setHelp(false);
          view.current?.focus();
        }}
      />
    </Box>
  );
}
