/**
 * Administration → Assistant: whether the assistant is on, and the language model it may use.
 *
 * - "Turn the assistant on" (`llm.agent_enabled`): off, every member's assistant and Board are hidden and the
 *   server answers 404 for them. On without a model (`none`) it still answers the common requests with its
 *   built-in planner.
 * - The model server: its kind (the address is filled in with that kind's usual one, changed freely), the model
 *   (the names the server listed in the last test are offered), the API key (write-only: the page only ever
 *   learns that one is saved; Replace types a new one, Remove clears it on Save), and the two timeouts.
 * - "Test connection" runs validateLlmSettings with what the form holds, saved or not, and shows each check in
 *   words, the problem's message and hint, and where the model is (`locality`): what leaves the house with a
 *   model on the internet (the request's text and the photos' metadata, never the original files), and that
 *   nothing does with one on this device or the home network.
 */
import { useId, useState, type FormEvent } from 'react';
import { messageOf } from '../../api/problem';
import { Button } from '../../components/Button';
import { FormError, FormSuccess } from '../../components/FormError';
import { LoadError } from '../../components/LoadError';
import { PageHeader } from '../../components/PageHeader';
import { TextField } from '../../components/TextField';
import { feedbackFrom, NO_FEEDBACK, type FormFeedback } from '../../lib/form-feedback';
import { useSystemSettings } from './admin-api';
import { LlmTestResult, PrivacyNote } from './LlmTestResult';
import { PROVIDERS, useSaveLlmSettings, useTestLlmConnection, type LlmCandidate, type LlmPatch, type LlmSettings, type LlmValidation, type Provider } from './assistant-settings-api';
import './assistant-settings.css';

export function AssistantSettingsPage() {
  const settings = useSystemSettings();
  return (
    <>
      <PageHeader title="Assistant">
        <p>The library assistant answers questions about your photos in words. It works without a language model; a model lets it understand more.</p>
      </PageHeader>
      {settings.isPending && <p role="status">Loading settings…</p>}
      {settings.isError && <LoadError error={settings.error} onRetry={() => void settings.refetch()} />}
      {settings.data && <AssistantForm saved={settings.data.llm} />}
    </>
  );
}

/** What the key field does on Save: leave the saved key, save the typed one, or clear it. */
type KeyAction = 'keep' | 'replace' | 'remove';

const FIELDS = { 'llm.base_url': 'base_url', 'llm.model_name': 'model_name', 'llm.api_key': 'api_key', 'llm.connect_timeout_s': 'connect', 'llm.idle_timeout_s': 'idle' };

function AssistantForm({ saved }: { saved: LlmSettings }) {
  const save = useSaveLlmSettings();
  const test = useTestLlmConnection();
  const [enabled, setEnabled] = useState(saved.agent_enabled);
  const [provider, setProvider] = useState<Provider>(saved.provider);
  const [baseUrl, setBaseUrl] = useState(saved.base_url ?? PROVIDERS[saved.provider].defaultBaseUrl ?? '');
  const [model, setModel] = useState(saved.model_name ?? '');
  const [keyAction, setKeyAction] = useState<KeyAction>(saved.api_key_configured ? 'keep' : 'replace');
  const [key, setKey] = useState('');
  const [connect, setConnect] = useState(String(saved.connect_timeout_s));
  const [idle, setIdle] = useState(String(saved.idle_timeout_s));
  const [feedback, setFeedback] = useState<FormFeedback>(NO_FEEDBACK);
  const [done, setDone] = useState<string | null>(null);
  const [result, setResult] = useState<LlmValidation | null>(null);
  const modelsId = useId();
  const none = provider === 'none';

  const edited = () => {
    setDone(null);
    if (feedback.summary) setFeedback(NO_FEEDBACK);
  };

  const chooseProvider = (next: Provider) => {
    // The address follows the kind while it is the previous kind's usual one (or empty): a typed one stays.
    const previousDefault = PROVIDERS[provider].defaultBaseUrl ?? '';
    if (baseUrl.trim() === '' || baseUrl.trim() === previousDefault) setBaseUrl(PROVIDERS[next].defaultBaseUrl ?? '');
    setProvider(next);
    setResult(null);
    edited();
  };

  /** The model fields as the form holds them (what both Save and Test connection send). */
  const modelFields = (): Omit<LlmCandidate, 'api_key'> | null => {
    const fields: Record<string, string> = {};
    const seconds = (text: string, max: number, name: string) => {
      const n = Number(text.trim());
      if (!Number.isInteger(n) || n < 1 || n > max) fields[name] = `Type a whole number of seconds from 1 to ${max}.`;
      return n;
    };
    const connectS = seconds(connect, 120, 'connect');
    const idleS = seconds(idle, 900, 'idle');
    if (Object.keys(fields).length > 0) {
      setFeedback({ summary: 'Check the highlighted fields.', fields });
      return null;
    }
    return { provider, base_url: none || baseUrl.trim() === '' ? null : baseUrl.trim(), model_name: none || model.trim() === '' ? null : model.trim(), connect_timeout_s: connectS, idle_timeout_s: idleS };
  };

  const keyPart = (): { api_key?: string | null } => {
    if (keyAction === 'remove') return { api_key: null };
    if (keyAction === 'replace' && key.trim() !== '') return { api_key: key.trim() };
    return {};
  };

  const submit = (e: FormEvent) => {
    e.preventDefault();
    setDone(null);
    const fields = modelFields();
    if (!fields) return;
    setFeedback(NO_FEEDBACK);
    const patch: LlmPatch = { agent_enabled: enabled, ...fields, ...keyPart() };
    save.mutate(patch, {
      onSuccess: (after) => {
        setKey('');
        setKeyAction(after.llm.api_key_configured ? 'keep' : 'replace');
        setDone(after.llm.agent_enabled ? 'Saved. The assistant is on for everyone in the household.' : 'Saved. The assistant is off.');
      },
      onError: (err) => setFeedback(feedbackFrom(err, FIELDS)),
    });
  };

  const runTest = () => {
    setDone(null);
    setResult(null);
    const fields = modelFields();
    if (!fields) return;
    setFeedback(NO_FEEDBACK);
    // A key being replaced but not typed yet is tested without one; the saved key goes only to its own server (the server decides).
    const candidate: LlmCandidate = { ...fields, ...(keyAction === 'replace' && key.trim() === '' && !saved.api_key_configured ? { api_key: null } : keyPart()) };
    test.mutate(candidate, { onSuccess: setResult, onError: (err) => setFeedback(feedbackFrom(err, FIELDS)) });
  };

  return (
    <form className="form assistant-form card" onSubmit={submit} noValidate aria-label="Assistant settings">
      <FormError message={feedback.summary} />
      <label className="choice">
        <input
          type="checkbox"
          role="switch"
          checked={enabled}
          onChange={(e) => {
            setEnabled(e.currentTarget.checked);
            edited();
          }}
        />
        <span>
          <strong>Turn the assistant on</strong>
        </span>
      </label>
      <p className="field__hint">Everyone in the household can then ask it about their own photos, and pin its results to their Board. It asks before it changes anything.</p>

      <div className="field">
        <label className="field__label" htmlFor={`${modelsId}-provider`}>
          Model server
        </label>
        <select id={`${modelsId}-provider`} className="field__input" value={provider} onChange={(e) => chooseProvider(e.target.value as Provider)}>
          {(Object.keys(PROVIDERS) as Provider[]).map((p) => (
            <option key={p} value={p}>
              {PROVIDERS[p].label}
            </option>
          ))}
        </select>
      </div>

      {none ? (
        <p className="notice notice--info">Without a model the assistant still answers the common requests (find and show, count, the best of a set, make an album, tag, like, compare years or cameras, who is in a set) with its built-in planner, in English. Nothing leaves this machine.</p>
      ) : (
        <>
          <TextField
            label="Address"
            type="url"
            inputMode="url"
            autoComplete="off"
            hint={provider === 'custom' ? 'The server’s OpenAI-compatible address, usually ending in /v1.' : `Usually ${PROVIDERS[provider].defaultBaseUrl}.`}
            value={baseUrl}
            onChange={(v) => {
              setBaseUrl(v);
              edited();
            }}
            error={feedback.fields.base_url}
          />
          <TextField
            label="Model"
            list={`${modelsId}-models`}
            autoComplete="off"
            hint={result?.models?.length ? `The server lists: ${result.models.slice(0, 12).join(', ')}${result.models.length > 12 ? '…' : ''}.` : 'The model’s name on that server (Test connection lists the ones it has).'}
            value={model}
            onChange={(v) => {
              setModel(v);
              edited();
            }}
            error={feedback.fields.model_name}
          />
          <datalist id={`${modelsId}-models`}>
            {result?.models?.map((m) => (
              <option key={m} value={m} />
            ))}
          </datalist>
          <KeyField
            configured={saved.api_key_configured}
            action={keyAction}
            onAction={(a) => {
              setKeyAction(a);
              setKey('');
              edited();
            }}
            value={key}
            onChange={(v) => {
              setKey(v);
              edited();
            }}
            needed={PROVIDERS[provider].needsKey}
            error={feedback.fields.api_key}
          />
          <div className="assistant-form__timeouts">
            <TextField
              label="Connection timeout (seconds)"
              hint="How long to wait for the model server to take the connection."
              type="number"
              inputMode="numeric"
              min={1}
              max={120}
              value={connect}
              onChange={(v) => { setConnect(v); edited(); }}
              error={feedback.fields.connect}
            />
            <TextField
              label="Answer timeout (seconds)"
              hint="Silence allowed while the model thinks. A model on a computer without a graphics card may need minutes."
              type="number"
              inputMode="numeric"
              min={1}
              max={900}
              value={idle}
              onChange={(v) => { setIdle(v); edited(); }}
              error={feedback.fields.idle}
            />
          </div>
          <PrivacyNote provider={provider} result={result} />
        </>
      )}

      <FormSuccess message={done} />
      <div className="button-row">
        <Button type="submit" busy={save.isPending} busyLabel="Saving…">
          Save
        </Button>
        {!none && (
          <Button variant="secondary" busy={test.isPending} busyLabel="Testing…" onClick={runTest}>
            Test connection
          </Button>
        )}
      </div>
      {test.isPending && <p role="status">Testing the connection: the server, the model, and a small tool call…</p>}
      {result && <LlmTestResult result={result} />}
      {test.isError && !feedback.summary && <p className="notice notice--error" role="alert">{messageOf(test.error)}</p>}
    </form>
  );
}

function KeyField(props: {
  configured: boolean;
  action: KeyAction;
  onAction: (a: KeyAction) => void;
  value: string;
  onChange: (v: string) => void;
  needed: boolean;
  error: string | undefined;
}) {
  const { configured, action, onAction, value, onChange, needed, error } = props;
  if (configured && action !== 'replace') {
    return (
      <div className="field">
        <span className="field__label">API key</span>
        <p className="assistant-form__key" role="status">
          {action === 'remove' ? 'The saved key is removed when you save.' : 'A key is saved.'}
        </p>
        <div className="button-row">
          <Button variant="secondary" className="button--small" onClick={() => onAction('replace')}>
            Replace key
          </Button>
          {action === 'remove' ? (
            <Button variant="quiet" className="button--small" onClick={() => onAction('keep')}>
              Keep key
            </Button>
          ) : (
            <Button variant="quiet" className="button--small" onClick={() => onAction('remove')}>
              Remove key
            </Button>
          )}
        </div>
      </div>
    );
  }
  return (
    <>
      <TextField
        label="API key"
        labelNote={needed ? undefined : 'optional'}
        type="password"
        autoComplete="new-password"
        hint={needed ? 'The key the service gave you. It is stored encrypted and never shown again.' : 'Only if the server asks for one. It is stored encrypted and never shown again.'}
        value={value}
        onChange={onChange}
        error={error}
      />
      {configured && (
        <Button variant="quiet" className="button--small" onClick={() => onAction('keep')}>
          Keep the saved key
        </Button>
      )}
    </>
  );
}
