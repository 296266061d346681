import { useId } from 'react';
import { THEME_CHOICES, THEME_CHOICE_LABELS } from './theme-rules';
import { useTheme } from './theme-provider';

/** Auto / Light / Dark as a radio group (arrow keys move between choices). */
export function ThemeChoiceControl({ legend = 'Theme' }: { legend?: string }) {
  const { choice, choose, theme, autoMode } = useTheme();
  const name = useId();
  return (
    <fieldset className="choice-group">
      <legend className="choice-group__legend">{legend}</legend>
      <div className="choice-group__options">
        {THEME_CHOICES.map((option) => (
          <label key={option} className="choice-group__option">
            <input
              type="radio"
              name={name}
              value={option}
              checked={choice === option}
              onChange={() => choose(option)}
            />
            {THEME_CHOICE_LABELS[option]}
          </label>
        ))}
      </div>
      {autoMode && (
        <p className="choice-group__hint">Following the time of day: {theme} now (light 06:00 to 18:00).</p>
      )}
    </fieldset>
  );
}
