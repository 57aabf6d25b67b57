import os
from pathlib import Path

import evaluate
from evaluate.utils import launch_gradio_widget

# On its Space the Hub sets SPACE_ID ("ORG/NAME"), and evaluate loads the module by that name, as
# evaluate's community metrics do; run by hand, it loads the script beside this file.
module = evaluate.load(os.environ.get("SPACE_ID") or str(Path(__file__).resolve().parent))
launch_gradio_widget(module)
