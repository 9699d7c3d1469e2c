import { createContext, useCallback, useContext, useMemo, useState, type ReactNode } from 'react';
import { ACCENT_ORDER, isAccent, type Accent } from './theme';

const ACCENT_KEY = 'accent';

function readAccent(): Accent {
  try {
    const stored = window.localStorage.getItem(ACCENT_KEY);
    return isAccent(stored) ? stored : 'cyan';
  } catch {
    return 'cyan';
  }
}

interface Preferences {
  accent: Accent;
  setAccent(accent: Accent): void;
  /** cyan → teal → purple → cyan */
  cycleAccent(): void;
}

const PreferencesContext = createContext<Preferences | null>(null);

/** The accent colour, kept in local storage ('accent'); the colour scheme is Mantine's (key 'theme'). */
export function PreferencesProvider({ children }: { children: (accent: Accent) => ReactNode }) {
  const [accent, setAccentState] = useState<Accent>(readAccent);
  const setAccent = useCallback((next: Accent) => {
    setAccentState(next);
    try {
      window.localStorage.setItem(ACCENT_KEY, next);
    } catch {
      /* storage blocked: the choice lasts this visit */
    }
    document.documentElement.setAttribute('data-accent', next);
  }, []);
  const value = useMemo<Preferences>(
    () => ({
      accent,
      setAccent,
      cycleAccent: () => setAccent(ACCENT_ORDER[(ACCENT_ORDER.indexOf(accent) + 1) % ACCENT_ORDER.length]!),
    }),
    [accent, setAccent],
  );
  return <PreferencesContext.Provider value={value}>{children(accent)}</PreferencesContext.Provider>;
}

export function usePreferences(): Preferences {
  const value = useContext(PreferencesContext);
  if (!value) throw new Error('usePreferences needs PreferencesProvider');
  return value;
}
