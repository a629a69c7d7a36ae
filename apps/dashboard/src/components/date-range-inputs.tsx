import { TextInput } from '@mantine/core';

interface DateRangeInputsProps {
  from: string;
  to: string;
  onFromChange: (value: string) => void;
  onToChange: (value: string) => void;
  /** The CSS `flex` of each field in its row. */
  flex?: string;
}

/** The `From` and `To` dates of a filter (YYYY-MM-DD), each bounding the other. */
export function DateRangeInputs({ from, to, onFromChange, onToChange, flex = '1 1 10rem' }: DateRangeInputsProps) {
  return (
    <>
      <TextInput label="From" type="date" value={from} max={to || undefined} onChange={(event) => onFromChange(event.currentTarget.value)} style={{ flex }} />
      <TextInput label="To" type="date" value={to} min={from || undefined} onChange={(event) => onToChange(event.currentTarget.value)} style={{ flex }} />
    </>
  );
}
