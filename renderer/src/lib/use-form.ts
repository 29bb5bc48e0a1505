/**
 * Form state for the account forms: the values, the feedback from the last submit, and `field(name)`
 * to spread into a TextField. Editing a field clears its message, so an error never outlives the
 * text it was about. After a failed submit, focus moves to the first field in error.
 */
import { useCallback, useEffect, useRef, useState } from 'react';
import { NO_FEEDBACK, type FormFeedback } from './form-feedback';

export function useForm<T extends Record<string, string>>(initial: T) {
  const [values, setValues] = useState<T>(initial);
  const [feedback, setFeedbackState] = useState<FormFeedback>(NO_FEEDBACK);
  const formRef = useRef<HTMLFormElement>(null);
  const [focusRequest, setFocusRequest] = useState(0);

  const setFeedback = useCallback((next: FormFeedback) => {
    setFeedbackState(next);
    if (Object.keys(next.fields).length) setFocusRequest((n) => n + 1);
  }, []);

  useEffect(() => {
    if (focusRequest) formRef.current?.querySelector<HTMLElement>('[aria-invalid="true"]')?.focus();
  }, [focusRequest]);

  const field = (name: keyof T & string) => ({
    name,
    value: values[name] ?? '',
    error: feedback.fields[name],
    onChange: (value: string) => {
      setValues((v) => ({ ...v, [name]: value }));
      if (feedback.fields[name]) {
        const { [name]: _cleared, ...rest } = feedback.fields;
        setFeedbackState({ ...feedback, fields: rest });
      }
    },
  });

  return { values, setValues, feedback, setFeedback, field, formRef };
}
