/** On Users & settings: whether the assistant is on and with which model, and the way to its settings page. */
import { Link } from 'react-router';
import { useSystemSettings } from './admin-api';
import { ADMIN_ASSISTANT_PATH } from './admin-paths';
import { PROVIDERS } from './assistant-settings-api';

export function AssistantCard() {
  const llm = useSystemSettings().data?.llm;
  return (
    <section className="card" aria-labelledby="assistant-card-heading">
      <h2 className="card__title" id="assistant-card-heading">
        Assistant
      </h2>
      {llm && (
        <p className="card__intro">
          {llm.agent_enabled ? 'On' : 'Off'}
          {' · '}
          {llm.provider === 'none' ? 'no language model (the built-in planner answers)' : `${PROVIDERS[llm.provider].label}${llm.model_name ? `, ${llm.model_name}` : ''}`}
        </p>
      )}
      <p>
        <Link to={ADMIN_ASSISTANT_PATH}>Assistant settings</Link>: turn it on, choose a language model, test the connection.
      </p>
    </section>
  );
}
