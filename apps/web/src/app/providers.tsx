import { localStorageColorSchemeManager, MantineProvider } from '@mantine/core';
import { Notifications } from '@mantine/notifications';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { useState, type ReactNode } from 'react';
import { ApiError } from '../lib/api-client';
import { PreferencesProvider } from '../ui/preferences';
import { buildTheme, cssVariablesResolver } from '../ui/theme';
import './theme.css';

// Mantine keeps the colour scheme under the key 'theme' ('light' | 'dark'), the name earlier versions used.
const colorSchemeManager = localStorageColorSchemeManager({ key: 'theme' });

function createQueryClient() {
  return new QueryClient({
    defaultOptions: {
      queries: {
        // A 4xx will not get better by asking again; network blips and 5xx get one more try.
        retry: (failureCount, error) =>
          !(error instanceof ApiError && error.status >= 400 && error.status < 500) && failureCount < 1,
        refetchOnWindowFocus: false,
      },
    },
  });
}

export function AppProviders({ children }: { children: ReactNode }) {
  const [queryClient] = useState(createQueryClient);
  return (
    <PreferencesProvider>
      {(accent) => (
        <MantineProvider
          theme={buildTheme(accent)}
          cssVariablesResolver={cssVariablesResolver}
          colorSchemeManager={colorSchemeManager}
          defaultColorScheme="light"
        >
          <Notifications position="top-center" />
          <QueryClientProvider client={queryClient}>{children}</QueryClientProvider>
        </MantineProvider>
      )}
    </PreferencesProvider>
  );
}
