import { render } from 'preact'
import '../ui/playground.css'
import { App } from './app.tsx'

render(<App />, document.getElementById('app')!)
