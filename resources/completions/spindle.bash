# bash completion for spindle: commands, their options, spec files and the
# application ids of the job history.

_spindle_applications() {
  spindle list --all --json 2>/dev/null | grep -o '"application_id": *"[^"]*"' | sed 's/.*"\(application_[^"]*\)"/\1/'
}

_spindle() {
  local cur prev words cword
  if declare -F _init_completion >/dev/null; then
    _init_completion || return
  else
    cur="${COMP_WORDS[COMP_CWORD]}"
    prev="${COMP_WORDS[COMP_CWORD-1]}"
    words=("${COMP_WORDS[@]}")
    cword=$COMP_CWORD
  fi

  local commands="validate render-env submit status watch logs kill tensorboard list history metrics cluster doctor local env serve sweep"
  local short_form="-r --cluster_requirement -s --script -i --input -o --output -n --name -q --queue -m --task_memory -c --task_vcores -t --tensorboard --docker_image"

  local command="" sub="" i
  for ((i = 1; i < cword; i++)); do
    case "${words[i]}" in
      -*) ;;
      *)
        if [[ -z "$command" ]]; then
          command="${words[i]}"
        elif [[ -z "$sub" ]]; then
          sub="${words[i]}"
        fi
        ;;
    esac
  done

  if [[ -z "$command" ]]; then
    COMPREPLY=($(compgen -W "$commands --help --version" -- "$cur"))
    return
  fi

  case "$prev" in
    -s | --script | -o | --output | -i | --input | --file)
      COMPREPLY=($(compgen -f -- "$cur"))
      return
      ;;
    -q | --queue | -n | --name | -m | --task_memory | -c | --task_vcores | --docker_image | -r | --cluster_requirement | --hosts | --task | --app-id | --attempt | --port | --bind | --tag | --search)
      return
      ;;
  esac

  local options=""
  case "$command" in
    validate) options="$short_form --json --cluster --search" ;;
    render-env) options="$short_form --hosts --task --app-id --attempt --json" ;;
    submit) options="$short_form --wait --json --no-fit-check --principal --keytab" ;;
    status | history) options="--json" ;;
    logs) options="--file --all-files -f --follow" ;;
    tensorboard) options="--port --bind" ;;
    serve) options="--port --bind --tls-certificate --tls-key --keytab --principal --token-from-env" ;;
    list) options="--all --search --json" ;;
    metrics) options="--tag --json -f --follow" ;;
    cluster)
      if [[ -z "$sub" ]]; then
        COMPREPLY=($(compgen -W "info nodes queues labels --json" -- "$cur"))
      else
        COMPREPLY=($(compgen -W "--json" -- "$cur"))
      fi
      return
      ;;
    local)
      [[ -z "$sub" ]] && COMPREPLY=($(compgen -W "up down status env" -- "$cur"))
      return
      ;;
    sweep)
      if [[ -z "$sub" ]]; then
        COMPREPLY=($(compgen -W "submit status list best stop kill" -- "$cur"))
      elif [[ "$sub" == submit ]]; then
        COMPREPLY=($(compgen -f -W "--search --json --no-fit-check --principal --keytab" -- "$cur"))
      elif [[ "$sub" == stop ]]; then
        COMPREPLY=($(compgen -W "--kill" -- "$cur"))
      else
        COMPREPLY=($(compgen -W "--json" -- "$cur"))
      fi
      return
      ;;
    env)
      if [[ -z "$sub" ]]; then
        COMPREPLY=($(compgen -W "pack list rm" -- "$cur"))
      elif [[ "$sub" == pack ]]; then
        COMPREPLY=($(compgen -d -W "current -o --output" -- "$cur"))
      elif [[ "$sub" == list ]]; then
        COMPREPLY=($(compgen -W "--json" -- "$cur"))
      fi
      return
      ;;
  esac

  if [[ "$cur" == -* ]]; then
    COMPREPLY=($(compgen -W "$options --help" -- "$cur"))
    return
  fi
  case "$command" in
    validate | render-env | submit)
      COMPREPLY=($(compgen -f -X '!*.@(yaml|yml|json)' -- "$cur") $(compgen -d -- "$cur"))
      ;;
    status | watch | logs | kill | tensorboard | history | metrics)
      [[ -z "$sub" ]] && COMPREPLY=($(compgen -W "$(_spindle_applications)" -- "$cur"))
      ;;
  esac
}

complete -F _spindle spindle
