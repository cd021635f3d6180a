import { useId, useState } from 'react';

export interface SuggestingInputProps {
  label: string;
  name: string;
  placeholder: string;
  value: string;
  onChange: (value: string) => void;
  /** What to suggest while typing. */
  suggestions: readonly string[];
  /** `floating`: the search box's large field with a floating label; `stacked`: a panel's. */
  look: 'floating' | 'stacked';
}

/**
 * A text field with suggestions: a native datalist, so that keyboard and screen readers work
 * out of the box. The suggestions join the list when the field is first focused: a few hundred
 * elements nobody sees until then would only slow the page's first paint and start-up.
 */
export function SuggestingInput(props: SuggestingInputProps) {
  const { label, suggestions, look } = props;
  const [suggesting, setSuggesting] = useState(false);
  const listId = useId();
  return (
    <>
      <label className={look === 'floating' ? 'floating-label' : 'flex flex-col gap-1'}>
        <span className={look === 'floating' ? undefined : 'text-sm font-medium'}>{label}</span>
        <input
          className={look === 'floating' ? 'input input-lg w-full' : 'input w-full'}
          name={props.name}
          list={listId}
          autoComplete="off"
          placeholder={props.placeholder}
          onFocus={() => setSuggesting(true)}
          value={props.value}
          onChange={(event) => props.onChange(event.target.value)}
        />
      </label>
      {/* The list is there from the start (the field is a combobox to assistive technology). */}
      <datalist id={listId}>
        {suggesting
          ? suggestions.map((suggestion) => <option key={suggestion} value={suggestion} />)
          : null}
      </datalist>
    </>
  );
}
