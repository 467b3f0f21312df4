import Box from '@mui/material/Box';
import MenuItem from '@mui/material/MenuItem';
import MenuList from '@mui/material/MenuList';
import Paper from '@mui/material/Paper';
import Typography from '@mui/material/Typography';
import {
  chooseEntry,
  currentPage,
  menuPages,
  menuTrail,
  MENU_HOTKEYS,
  NEXT_PAGE_KEY,
  CLOSE_KEY,
  openMenu,
  pressKey,
  type MenuEntry,
  type MenuOutcome,
  type MenuState,
} from '@loopdesk/workbench/menu.ts';
import type { Presence } from '@loopdesk/contracts/workbench-payloads.ts';
import { useEffect, useLayoutEffect, useRef, useState } from 'react';

/** Spec 1 §9: the popup is 536 px wide. */
export const HOTKEY_MENU_WIDTH_PX = 536;
/** Spec 1 §9: the popup appears 50 px below the selection. */
export const HOTKEY_MENU_OFFSET_PX = 50;

const MENU_KEYS: ReadonlySet<string> = new Set<string>([...MENU_HOTKEYS, NEXT_PAGE_KEY, CLOSE_KEY]);

/** Where the selection is on screen, in viewport coordinates. */
export interface MenuAnchor {
  /** The bottom of the selection. */
  bottom: number;
  left: number;
  /** The top of the selection, when known: the popup goes above it when it cannot fit below. */
  top?: number;
}

/**
 * The popup's top edge: 50 px below the selection (spec 1 §9) when it fits in the window; else
 * 50 px above the selection when it fits there; else as low as the window lets it be. A popup
 * running off the bottom of the window would hide the entries it offers.
 */
export function menuTop(anchor: MenuAnchor, height: number, viewportHeight: number): number {
  const below = anchor.bottom + HOTKEY_MENU_OFFSET_PX;
  if (viewportHeight <= 0 || below + height <= viewportHeight) {
    return below;
  }
  const above = (anchor.top ?? anchor.bottom) - HOTKEY_MENU_OFFSET_PX - height;
  return above >= 0 ? above : Math.max(0, viewportHeight - height);
}

export interface HotkeyMenuProps {
  entries: readonly MenuEntry[];
  anchor: MenuAnchor;
  /**
   * A leaf entry was chosen: annotate the selection with its category (and its presence, for a
   * boolean slot's Endorse / Deny / Unsure); the popup closes.
   */
  onAnnotate: (category: string, presence?: Presence) => void;
  /** Escape: the popup closes without annotating. */
  onClose: () => void;
  /** Accessible name of the popup (default 'Categories'). */
  label?: string;
}

/**
 * The floating category menu of the annotation screens (spec 1 §4, §9): pages of up to nine
 * entries numbered 1-9; a digit picks the entry with that hotkey, Space cycles pages, Escape
 * closes; an entry with a submenu keeps the selection and shows the submenu. Keys are read on the
 * whole document so that focus can stay on the selected text. In a submenu Escape goes back one
 * level and a breadcrumb ('Categories › Intents') says where the menu is (issue 20). Mount it anew
 * for each selection.
 */
export function HotkeyMenu({
  entries,
  anchor,
  onAnnotate,
  onClose,
  label = 'Categories',
}: HotkeyMenuProps) {
  const [state, setState] = useState<MenuState>(() => openMenu(entries));
  const stateRef = useRef(state);
  const callbacks = useRef({ onAnnotate, onClose });
  useEffect(() => {
    callbacks.current = { onAnnotate, onClose };
  });

  const apply = (outcome: MenuOutcome) => {
    if (outcome.state) {
      stateRef.current = outcome.state;
      setState(outcome.state);
    }
    switch (outcome.effect.type) {
      case 'annotate':
        callbacks.current.onAnnotate(outcome.effect.category, outcome.effect.presence);
        return;
      case 'close':
        callbacks.current.onClose();
        return;
      case 'submenu':
      case 'back':
      case 'none':
        return;
    }
  };
  const applyRef = useRef(apply);
  useEffect(() => {
    applyRef.current = apply;
  });

  useEffect(() => {
    const onKeyDown = (event: KeyboardEvent) => {
      if (event.ctrlKey || event.altKey || event.metaKey || !MENU_KEYS.has(event.key)) {
        return;
      }
      // Space would scroll the page; digits must not reach other shortcuts.
      event.preventDefault();
      event.stopPropagation();
      applyRef.current(pressKey(stateRef.current, event.key));
    };
    document.addEventListener('keydown', onKeyDown, true);
    return () => document.removeEventListener('keydown', onKeyDown, true);
  }, []);

  // Placed before the browser paints: measured, then moved up only if it would not fit below.
  const paper = useRef<HTMLDivElement>(null);
  useLayoutEffect(() => {
    const element = paper.current;
    if (element) {
      element.style.top = `${menuTop(anchor, element.offsetHeight, window.innerHeight)}px`;
    }
  });

  const pages = menuPages(state);
  const items = currentPage(state);
  const trail = menuTrail(state);
  const escapeHint = trail.length > 0 ? 'Esc: back' : 'Esc: close';
  const left = Math.max(
    0,
    Math.min(anchor.left, (window.innerWidth || HOTKEY_MENU_WIDTH_PX) - HOTKEY_MENU_WIDTH_PX),
  );

  return (
    <Paper
      ref={paper}
      elevation={8}
      sx={{
        position: 'fixed',
        top: anchor.bottom + HOTKEY_MENU_OFFSET_PX,
        left,
        width: HOTKEY_MENU_WIDTH_PX,
        zIndex: (theme) => theme.zIndex.modal - 1,
      }}
    >
      {trail.length > 0 ? (
        <Typography
          component="nav"
          aria-label="Menu level"
          variant="subtitle2"
          sx={{ px: 2, py: 0.75, borderBottom: 1, borderColor: 'divider' }}
        >
          {[label, ...trail].join(' › ')}
        </Typography>
      ) : null}
      <MenuList aria-label={label} autoFocus={false} autoFocusItem={false} disablePadding>
        {items.map(({ hotkey, entry }) => (
          <MenuItem
            key={`${hotkey}-${entry.label}`}
            // Keeps the text selection: a mousedown on the menu would otherwise clear it.
            onMouseDown={(event) => event.preventDefault()}
            onClick={() => apply(chooseEntry(state, entry))}
            aria-haspopup={entry.next ? 'menu' : undefined}
          >
            <Box
              component="kbd"
              sx={{ minWidth: 24, mr: 1.5, fontFamily: 'monospace', color: 'text.secondary' }}
            >
              {hotkey}
            </Box>
            <Box component="span" sx={{ flexGrow: 1 }}>
              {entry.label}
            </Box>
            {entry.next ? (
              <Box component="span" aria-hidden sx={{ color: 'text.secondary' }}>
                ›
              </Box>
            ) : null}
          </MenuItem>
        ))}
      </MenuList>
      <Typography
        variant="caption"
        component="p"
        sx={{ px: 2, py: 0.75, color: 'text.secondary', borderTop: 1, borderColor: 'divider' }}
      >
        {pages.length > 1
          ? `Page ${state.page + 1} of ${pages.length} · Space: next page · ${escapeHint}`
          : escapeHint}
      </Typography>
    </Paper>
  );
}
