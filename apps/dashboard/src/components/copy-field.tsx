// A read-only value with a Copy button. The clipboard API needs a secure context (HTTPS or this
// machine); elsewhere the value is selected so that the reader can copy it with the keyboard.
import { Button, Group, TextInput } from '@mantine/core';
import { useId, useRef, useState } from 'react';

type CopyOutcome = 'idle' | 'copied' | 'select';

async function writeToClipboard(text: string): Promise<boolean> {
  try {
    if (!navigator.clipboard?.writeText) return false;
    await navigator.clipboard.writeText(text);
    return true;
  } catch {
    return false;
  }
}

export function CopyField({ label, value, description }: { label: string; value: string; description?: string }) {
  const input = useRef<HTMLInputElement>(null);
  const [outcome, setOutcome] = useState<CopyOutcome>('idle');
  const statusId = useId();
  const inputId = useId();

  const copy = async () => {
    const copied = await writeToClipboard(value);
    if (!copied) {
      input.current?.focus();
      input.current?.select();
    }
    setOutcome(copied ? 'copied' : 'select');
  };

  return (
    <div>
      <Group align="flex-end" gap="xs" wrap="nowrap">
        <TextInput
          ref={input}
          id={inputId}
          label={label}
          description={description}
          value={value}
          readOnly
          onFocus={(event) => event.currentTarget.select()}
          styles={{ input: { fontFamily: 'var(--mantine-font-family-monospace)' } }}
          style={{ flex: 1, minWidth: 0 }}
        />
        <Button variant={outcome === 'copied' ? 'filled' : 'light'} onClick={() => void copy()} aria-describedby={`${inputId} ${statusId}`}>
          Copy
        </Button>
      </Group>
      <div id={statusId} role="status" aria-live="polite" style={{ minHeight: '1.25rem', fontSize: 'var(--mantine-font-size-sm)' }}>
        {outcome === 'copied' && `${label} copied to the clipboard.`}
        {outcome === 'select' && `${label} is selected: press Ctrl+C (⌘C) to copy it.`}
      </div>
    </div>
  );
}
