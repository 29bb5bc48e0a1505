/**
 * What "Test connection" found (validateLlmSettings): each check in words, the problem and what to do about it,
 * and what leaves the house with this model (PrivacyNote, from the answer's `locality`).
 */
import type { LlmValidation, Provider } from './assistant-settings-api';

const CHECK_NAMES: Record<LlmValidation['checks'][number]['name'], string> = {
  settings: 'Settings',
  server: 'The server answers',
  model: 'The model is there',
  tools: 'The model can use tools',
};

const STATUS_WORDS: Record<LlmValidation['checks'][number]['status'], string> = {
  passed: 'Passed',
  failed: 'Failed',
  skipped: 'Not checked',
};

export function LlmTestResult({ result }: { result: LlmValidation }) {
  return (
    <section className={`llm-result notice ${result.ok ? 'notice--success' : 'notice--error'}`} aria-label="Connection test" aria-live="polite">
      <h2 className="llm-result__title">{result.ok ? 'The assistant can use this model.' : 'The assistant cannot use this model yet.'}</h2>
      <ul className="llm-result__checks">
        {result.checks.map((c) => (
          <li key={c.name} className={`llm-check llm-check--${c.status}`}>
            <strong>
              {CHECK_NAMES[c.name]}: {STATUS_WORDS[c.status]}.
            </strong>{' '}
            {c.message}
          </li>
        ))}
      </ul>
      {result.problem && (
        <div className="llm-result__problem" role="alert">
          <p>
            <strong>{result.problem.message}</strong>
          </p>
          {result.problem.hint && <p>{result.problem.hint}</p>}
        </div>
      )}
    </section>
  );
}

/**
 * Decision: before a test the place of a custom or local server is not known for sure (an address may name
 * any machine), so the note says both cases; after one it says the one the server found. OpenAI is on the
 * internet whatever the test says.
 */
export function PrivacyNote({ provider, result }: { provider: Provider; result: LlmValidation | null }) {
  const locality = result?.provider === provider ? result.locality : provider === 'openai' ? 'internet' : null;
  const cloud = 'With a model on the internet, each request’s text and the metadata of the photos it is about (dates, places, cameras, names of people and albums) are sent to that service. Original photos and videos never are.';
  const local = 'With a model on this computer or your home network, nothing leaves the house.';
  if (locality === 'internet') return <p className="notice notice--info" data-locality="internet">This model is on the internet. {cloud}</p>;
  if (locality === 'this_device') return <p className="notice notice--info" data-locality="this_device">This model runs on this computer: nothing leaves the house.</p>;
  if (locality === 'home_network') return <p className="notice notice--info" data-locality="home_network">This model is on your home network: nothing leaves the house.</p>;
  return (
    <p className="notice notice--info">
      {local} {cloud} Test connection to see where this one is.
    </p>
  );
}
