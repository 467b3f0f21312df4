import { describe, expect, it } from 'vitest';
import { HOTKEY_MENU_OFFSET_PX, menuTop } from './hotkey-menu.tsx';

describe('menuTop: where the hotkey popup goes', () => {
  const height = 350;

  it('is 50 px below the selection when it fits (spec 1 §9)', () => {
    expect(HOTKEY_MENU_OFFSET_PX).toBe(50);
    expect(menuTop({ top: 100, bottom: 120, left: 0 }, height, 900)).toBe(170);
    // Exactly fitting is still below.
    expect(menuTop({ top: 480, bottom: 500, left: 0 }, height, 900)).toBe(550);
  });

  it('goes 50 px above the selection when it would run off the bottom of the window', () => {
    expect(menuTop({ top: 700, bottom: 720, left: 0 }, height, 900)).toBe(700 - 50 - height);
  });

  it('stays in the window when it fits neither below nor above', () => {
    expect(menuTop({ top: 300, bottom: 320, left: 0 }, height, 600)).toBe(600 - height);
    expect(menuTop({ top: 10, bottom: 20, left: 0 }, 800, 600)).toBe(0);
  });

  it('without the selection top, measures above from its bottom', () => {
    expect(menuTop({ bottom: 720, left: 0 }, height, 900)).toBe(720 - 50 - height);
  });

  it('keeps the spec position when the window height is unknown', () => {
    expect(menuTop({ top: 700, bottom: 720, left: 0 }, height, 0)).toBe(770);
  });
});
